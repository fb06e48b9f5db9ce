using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Model;

/// <summary>
/// Random steps against the engine and a model of it (see <see cref="ModelRunner"/>). A failure names
/// its seed and step; rerun just that seed with ModelRunner.Run(seed, steps, store).
/// Slow tier: dotnet test tests/Storage.Tests --settings tests/slow.runsettings --filter "FullyQualifiedName~ModelBasedTests"
/// </summary>
[Collection(HeavyTests.Name)]
public class ModelBasedTests
{
    public static TheoryData<int> SlowSeeds()
    {
        var seeds = new TheoryData<int>();
        for (var seed = 1000; seed < 1040; seed++)
            seeds.Add(seed);
        return seeds;
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void RandomSteps_MatchTheModel_InMemory(int seed) => ModelRunner.Run(seed, 1500, ModelStore.Memory);

    [Fact]
    public void RandomSteps_MatchTheModel_WithTheBackgroundFlusherRunning() => ModelRunner.Run(4, 1500, ModelStore.MemoryWithBackgroundFlush);

    [Fact]
    public void RandomSteps_MatchTheModel_InADirectory() => ModelRunner.Run(5, 400, ModelStore.Directory);

    [Theory]
    [Trait("Category", "Slow")]
    [MemberData(nameof(SlowSeeds))]
    public void RandomSteps_MatchTheModel_ManySeedsInMemory(int seed) => ModelRunner.Run(seed, 6000, ModelStore.Memory);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(2000)]
    [InlineData(2001)]
    [InlineData(2002)]
    [InlineData(2003)]
    public void RandomSteps_MatchTheModel_ManyStepsWithTheBackgroundFlusher(int seed) => ModelRunner.Run(seed, 6000, ModelStore.MemoryWithBackgroundFlush);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(3000)]
    [InlineData(3001)]
    public void RandomSteps_MatchTheModel_ManyStepsInADirectory(int seed) => ModelRunner.Run(seed, 3000, ModelStore.Directory);
}
