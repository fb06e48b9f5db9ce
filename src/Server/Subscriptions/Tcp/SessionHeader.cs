namespace Folio.Server.Subscriptions.Tcp;

/// <summary>What a worker's first line asks for: <c>{"Database","Subscription","Strategy","BatchSize","MaxBatchWaitMs","ApiKey"}</c>.</summary>
internal readonly record struct SessionHeader(string Database, string Subscription, bool TakeOver, int BatchSize, TimeSpan MaxBatchWait, string? ApiKey);
