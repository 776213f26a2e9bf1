/** The Square-Version of the contract this project speaks (the spec's release). */
export const DEFAULT_SQUARE_VERSION = "2024-01-18";
