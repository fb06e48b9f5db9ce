namespace Folio.Studio.Tests.Support;

/// <summary>The browser tests share one server and one Chromium, and run one at a time on the shared cores.</summary>
[CollectionDefinition(Name)]
public sealed class StudioCollection : ICollectionFixture<StudioFixture>
{
    public const string Name = "Studio";
}
