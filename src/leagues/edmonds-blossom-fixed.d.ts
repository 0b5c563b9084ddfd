/**
 * Types for edmonds-blossom-fixed 1.0.1 (ships none): a port of Joris van Rantwijk's
 * maximum-weight matching. Takes edges [i, j, weight] over vertices 0…n−1 and returns
 * mate[v] (−1 when unmatched). With maxCardinality, the best among maximum-cardinality
 * matchings.
 */
declare module 'edmonds-blossom-fixed' {
  function blossom(edges: Array<[number, number, number]>, maxCardinality?: boolean): number[];
  export = blossom;
}
