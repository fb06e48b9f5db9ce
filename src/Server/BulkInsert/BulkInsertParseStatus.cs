namespace Folio.Server.BulkInsert;

/// <summary>Why <see cref="BulkInsertParser.Parse"/> returned.</summary>
public enum BulkInsertParseStatus
{
    /// <summary>Everything buffered is parsed; the next command needs more of the body.</summary>
    NeedMoreData,

    /// <summary>The batch reached its command or byte limit; unparsed bytes stay buffered.</summary>
    BatchFull,

    /// <summary>The array is closed and the body ended after it.</summary>
    Completed,
}
