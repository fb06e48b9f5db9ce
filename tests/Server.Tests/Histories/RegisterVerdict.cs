namespace Folio.Server.Tests.Histories;

/// <summary>The verdict on one register's history.</summary>
/// <param name="Linearizable">True when some order of the steps, each at an instant inside its interval, explains every answer.</param>
/// <param name="Decided">False when the search ran out of its budget before finding an order or ruling every one out.</param>
/// <param name="Longest">The most steps the search managed to order.</param>
/// <param name="Stuck">Where the deepest attempt stopped: a completed step that no order could place in time, or null.</param>
/// <param name="StuckState">The register's value at that point.</param>
public sealed record RegisterVerdict(bool Linearizable, bool Decided, int Longest, RegisterStep? Stuck, int StuckState);
