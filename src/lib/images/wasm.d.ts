// wrangler (and the vitest pool) turn an imported .wasm file into a compiled module (a CompiledWasm rule).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
