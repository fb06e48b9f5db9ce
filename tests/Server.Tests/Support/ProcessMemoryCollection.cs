namespace Folio.Server.Tests.Support;

/// <summary>
/// Tests that measure the whole process's memory run in this collection: xunit runs it alone, after
/// the parallel collections, so other tests' allocations do not count against their bound.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessMemoryCollection
{
    public const string Name = "Process memory";
}
