using Folio.Storage.Paging;

namespace Folio.Storage.Transactions;

/// <summary>
/// Where a snapshot's pages come from: one data file and the versions of its pages not yet applied to it.
/// An environment has one until a compaction swaps in a rewritten file; snapshots taken before the swap
/// keep reading the old pair, so page numbers of the two files never meet.
/// </summary>
internal sealed class PageSource(Pager pager, PageTable pageTable)
{
    public Pager Pager { get; } = pager;

    public PageTable PageTable { get; } = pageTable;
}
