using Folio.Indexing.Scripting;

namespace Folio.Server.Configuration;

/// <summary>
/// Limits of every JavaScript run (the <c>Scripting</c> section): one projection of one result, one patch of one
/// document. A script past a limit is stopped with a 400 (or, in a patch by query, fails the operation).
/// </summary>
public sealed class ScriptingOptions
{
    /// <summary>Wall-clock milliseconds per run (<c>Scripting:TimeoutMs</c>, default 1000).</summary>
    public int TimeoutMs { get; set; } = (int)ScriptLimits.Default.Timeout.TotalMilliseconds;

    /// <summary>Statements executed per run (<c>Scripting:MaxStatements</c>, default 1,000,000).</summary>
    public int MaxStatements { get; set; } = ScriptLimits.Default.MaxStatements;

    /// <summary>Bytes a run may allocate (<c>Scripting:MaxMemoryBytes</c>, default 64 MB).</summary>
    public long MaxMemoryBytes { get; set; } = ScriptLimits.Default.MaxMemoryBytes;

    /// <summary>Depth of nested calls (<c>Scripting:MaxRecursionDepth</c>, default 64).</summary>
    public int MaxRecursionDepth { get; set; } = ScriptLimits.Default.MaxRecursionDepth;

    /// <summary>Elements of one array a script may create (<c>Scripting:MaxArraySize</c>, default 1,000,000).</summary>
    public long MaxArraySize { get; set; } = ScriptLimits.Default.MaxArraySize;

    /// <summary>The limits these settings describe (call after <see cref="Validate"/> found nothing).</summary>
    public ScriptLimits ToLimits() => new()
    {
        Timeout = TimeSpan.FromMilliseconds(TimeoutMs),
        MaxStatements = MaxStatements,
        MaxMemoryBytes = MaxMemoryBytes,
        MaxRecursionDepth = MaxRecursionDepth,
        MaxArraySize = (uint)MaxArraySize,
    };

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (TimeoutMs <= 0)
            errors.Add("Scripting:TimeoutMs must be positive.");
        if (MaxStatements <= 0)
            errors.Add("Scripting:MaxStatements must be positive.");
        if (MaxMemoryBytes < 1024 * 1024)
            errors.Add("Scripting:MaxMemoryBytes must be at least 1 MB (1048576).");
        if (MaxRecursionDepth <= 0)
            errors.Add("Scripting:MaxRecursionDepth must be positive.");
        if (MaxArraySize is <= 0 or > uint.MaxValue)
            errors.Add($"Scripting:MaxArraySize must be between 1 and {uint.MaxValue}.");
        return errors;
    }
}
