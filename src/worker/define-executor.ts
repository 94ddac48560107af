// The definition lives beside the built-in kinds made with it; `teamrun/worker` offers it from here.
export { defineExecutor, type DefinedExecutor, type SpecSchema } from '../activities/executors/define';
