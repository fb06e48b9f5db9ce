namespace Folio.Indexing.Scripting;

/// <summary>
/// A script failed or hit a limit. <see cref="Line"/> and <see cref="Column"/> (1-based) point into the text the
/// client sent (the query, or the patch script) when the failure has a place.
/// </summary>
public sealed class ScriptException(string message, ScriptFailure failure, int? line = null, int? column = null, Exception? inner = null)
    : Exception(message, inner)
{
    /// <summary>Why the script stopped.</summary>
    public ScriptFailure Failure { get; } = failure;

    /// <summary>The line of the client's text where it failed, if known.</summary>
    public int? Line { get; } = line;

    /// <summary>The column of that line, if known.</summary>
    public int? Column { get; } = column;

    /// <summary>Whether a limit stopped it rather than an error in the script.</summary>
    public bool IsLimit => Failure is ScriptFailure.Timeout or ScriptFailure.Statements or ScriptFailure.Memory or ScriptFailure.Recursion;
}
