export { defineExecutor, type DefinedExecutor, type SpecSchema } from '../activities/executors/define';
