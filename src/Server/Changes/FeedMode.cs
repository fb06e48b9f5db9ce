namespace Folio.Server.Changes;

/// <summary>How an HTTP changes request answers (<c>feed=</c>), as CouchDB's <c>_changes</c> does.</summary>
public enum FeedMode
{
    /// <summary>The changes there are now, in one JSON answer.</summary>
    Normal,

    /// <summary>Like <see cref="Normal"/>, but when there are none, waits for the first matching change (or the timeout).</summary>
    LongPoll,

    /// <summary>One NDJSON line per change as they happen, with empty lines as heartbeats, until the client leaves, the limit or the timeout.</summary>
    Continuous,
}
