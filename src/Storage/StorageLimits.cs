namespace Folio.Storage;

/// <summary>The fixed sizes of the storage format.</summary>
public static class StorageLimits
{
    /// <summary>The size of a page, the unit of the data file, the journal and copy-on-write.</summary>
    public const int PageSize = 8192;

    /// <summary>
    /// The longest key a tree accepts. A branch page must hold several keys of this size, and a
    /// multi-value tree stores key and value together in one key, so both count against it.
    /// </summary>
    public const int MaxKeySize = 1024;

    /// <summary>The largest value a tree accepts.</summary>
    public const int MaxValueSize = 1 << 30;

    /// <summary>
    /// The bytes of a run of overflow pages that are not its value: a value too large for a leaf gets a run of
    /// pages of its own, which starts with a page header, so a run of n pages holds n × <see cref="PageSize"/>
    /// less this.
    /// </summary>
    public const int OverflowHeaderSize = Paging.PageHeader.Size;
}
