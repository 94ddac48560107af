import { TeamrunError } from '../errors';
/** A config file, profile or connection setting that cannot be used; the message says which and where. */
export declare class ConfigError extends TeamrunError {
    readonly code = "InvalidConfig";
}
