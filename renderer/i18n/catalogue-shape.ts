// The shape a translation must have: the English catalogue's nested keys, each with text of its own.

type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** One part of a translation: the matching part of the English catalogue, with its own words (no key missing or extra). */
export type CatalogueOf<T> = Shape<T>;
