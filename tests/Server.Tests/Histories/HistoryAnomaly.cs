namespace Folio.Server.Tests.Histories;

/// <summary>One anomaly, with the operations that show it.</summary>
/// <param name="Kind">What kind.</param>
/// <param name="Key">The document it is about.</param>
/// <param name="Detail">The operations and values, for a person to follow.</param>
public sealed record HistoryAnomaly(AnomalyKind Kind, string Key, string Detail)
{
    /// <inheritdoc />
    public override string ToString() => $"{Kind} on {Key}: {Detail}";
}
