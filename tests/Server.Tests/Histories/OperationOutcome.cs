namespace Folio.Server.Tests.Histories;

/// <summary>How an operation ended, as far as its client can know.</summary>
public enum OperationOutcome
{
    /// <summary>Answered with success: a write is acknowledged, a read saw what <see cref="HistoryOperation.Reads"/> holds.</summary>
    Ok,

    /// <summary>Answered with a definite refusal (a 409 for a write, any error for a read): it changed nothing.</summary>
    Failed,

    /// <summary>No answer (cut by a kill, timed out) or an answer that does not say: it may or may not have taken effect.</summary>
    Unknown,

    /// <summary>Never reached a server (the connection was refused: the process was dead): it changed and saw nothing.</summary>
    NotSent,
}
