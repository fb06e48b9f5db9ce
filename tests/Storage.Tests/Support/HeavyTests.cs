namespace Folio.Storage.Tests.Support;

/// <summary>
/// The CPU-heavy randomized, power-loss and kill suites: they run one at a time, after the parallel
/// tests, so they do not change the timing (the background flusher's pace) other tests see.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class HeavyTests
{
    public const string Name = "Heavy tests";
}
