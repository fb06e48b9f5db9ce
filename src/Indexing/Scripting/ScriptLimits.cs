namespace Folio.Indexing.Scripting;

/// <summary>
/// What one run of a script (one projection of one result, one patch of one document) may use before it is
/// stopped. A runaway script then ends with a <see cref="ScriptException"/> instead of holding a thread, a
/// transaction or the heap.
/// </summary>
public sealed record ScriptLimits
{
    /// <summary>The limits a server uses unless configured otherwise.</summary>
    public static ScriptLimits Default { get; } = new();

    /// <summary>Wall-clock time per run (default 1 second).</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Statements executed per run (default 1,000,000).</summary>
    public int MaxStatements { get; init; } = 1_000_000;

    /// <summary>Bytes the running thread may allocate per run (default 64 MB).</summary>
    public long MaxMemoryBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>Depth of nested calls (default 64).</summary>
    public int MaxRecursionDepth { get; init; } = 64;

    /// <summary>Elements of one array a script may create (default 1,000,000).</summary>
    public uint MaxArraySize { get; init; } = 1_000_000;
}
