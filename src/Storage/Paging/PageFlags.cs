namespace Folio.Storage.Paging;

/// <summary>What a page holds; stored in every page's header so Verify() and recovery can tell.</summary>
[Flags]
internal enum PageFlags : byte
{
    None = 0,
    Leaf = 1,
    Branch = 2,
    Overflow = 4,
    FreeSpaceBitmap = 8,
    State = 16,
    FileHeader = 32,

    /// <summary>A run of pages holding several values of one tree, packed one after another.</summary>
    ValueHeap = 64,
}
