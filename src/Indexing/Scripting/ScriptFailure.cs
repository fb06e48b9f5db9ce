namespace Folio.Indexing.Scripting;

/// <summary>Why a script stopped.</summary>
public enum ScriptFailure
{
    /// <summary>The text is not JavaScript.</summary>
    Syntax,

    /// <summary>The script threw (a TypeError, a ReferenceError, its own throw).</summary>
    Runtime,

    /// <summary>It ran longer than <see cref="ScriptLimits.Timeout"/>.</summary>
    Timeout,

    /// <summary>It executed more than <see cref="ScriptLimits.MaxStatements"/> statements.</summary>
    Statements,

    /// <summary>It allocated more than <see cref="ScriptLimits.MaxMemoryBytes"/>, or an array above <see cref="ScriptLimits.MaxArraySize"/>.</summary>
    Memory,

    /// <summary>It nested calls deeper than <see cref="ScriptLimits.MaxRecursionDepth"/>.</summary>
    Recursion,

    /// <summary>Its caller cancelled it (an operation killed, a request aborted).</summary>
    Canceled,

    /// <summary>It produced a value Folio cannot store or answer (a cycle, nesting too deep).</summary>
    Result,
}
