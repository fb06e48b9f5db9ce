using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Where a full-text field's positions are kept (<see cref="PositionLists"/>): an inline list's and an open chunk's under
/// the list's key in the terms tree (<see cref="SearchIndex.PositionsTree"/>), a sealed chunk's under its sequence number
/// (<see cref="SearchIndex.SealedPositionsTree"/>), opened when first needed.
/// </summary>
/// <remarks>
/// Sealed chunks' positions had at first been kept with the open ones, by chunk key: each batch then rewrote every term's
/// open positions all over a tree mostly made of sealed ones, and the last commit of the 1M benchmark load journaled 17.6 MB
/// of pages. Kept apart, the sealed ones only grow at their tree's end, as the sealed chunks do (docs/benchmarks.md).
/// </remarks>
internal sealed class PositionTrees(Tree lists, Func<Tree> openSealed)
{
    private Tree? _sealed;

    /// <summary>The positions of inline lists and open chunks, by the list's key.</summary>
    public Tree Lists => lists;

    /// <summary>The positions of sealed chunks, by sequence number.</summary>
    public Tree Sealed => _sealed ??= openSealed();
}
