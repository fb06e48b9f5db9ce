namespace Folio.Server.Tests.Support;

/// <summary>What a <see cref="LatencyProbe"/> saw: requests, failures (and the first one's reason), and latencies in ms.</summary>
public sealed record LatencyReport(int Requests, int Failures, string? FirstFailure, double P50, double P99, double Max)
{
    public override string ToString() =>
        $"{Requests} requests, {Failures} failed{(FirstFailure is null ? "" : $" (first: {FirstFailure})")}, p50 {P50:0.0} ms, p99 {P99:0.0} ms, max {Max:0.0} ms";

    /// <summary>Asserts every request succeeded, enough of them ran, and the p99 stayed under <paramref name="p99Bound"/>.</summary>
    public void AssertServed(int atLeast, TimeSpan p99Bound)
    {
        Assert.True(Failures == 0, ToString());
        Assert.True(Requests >= atLeast, ToString());
        Assert.True(P99 < p99Bound.TotalMilliseconds, ToString());
    }
}
