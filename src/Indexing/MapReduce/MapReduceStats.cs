namespace Folio.Indexing.MapReduce;

/// <summary>What a map/reduce index holds and how long its last reduce took.</summary>
/// <param name="MapEntries">The map entries of all documents.</param>
/// <param name="Groups">The groups, that is the result rows.</param>
/// <param name="LastReduceMs">How long the last batch took to retract, add and re-reduce, before its commits.</param>
public readonly record struct MapReduceStats(long MapEntries, long Groups, double LastReduceMs);
