// The SDK checks for an adapter when its request module loads, so this must be imported before any *Api module.
import FetchAdapter from "mdclub-sdk-js/es/adapter/FetchAdapter";
import defaults from "mdclub-sdk-js/es/defaults";

defaults.apiPath = "http://mdclub.test/api";
defaults.adapter = new FetchAdapter();

export { defaults };
