namespace Folio.Server.Monitoring;

/// <summary>What the server did in one second.</summary>
/// <param name="At">The end of the second, as Unix milliseconds.</param>
/// <param name="Requests">Requests that completed in it.</param>
/// <param name="Failed">Of those, how many answered a 5xx.</param>
/// <param name="P50Microseconds">The median duration of the questions (feeds and streams left out), 0 when there were none.</param>
/// <param name="P99Microseconds">The 99th percentile of those durations.</param>
/// <param name="MaxMicroseconds">The longest of those durations.</param>
/// <param name="CpuPercent">The process's CPU time in the second over one core's (so up to 100 × cores).</param>
/// <param name="Writes">Document writes (puts and deletes) committed in it, across the databases.</param>
/// <param name="Indexed">Writes the indexes worked through in it, summed over the indexes.</param>
public readonly record struct ServerSample(long At, long Requests, long Failed, long P50Microseconds, long P99Microseconds, long MaxMicroseconds, double CpuPercent, long Writes, long Indexed);
