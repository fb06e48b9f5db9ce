namespace Folio.Client.Tests.Support;

/// <summary>The test classes share one server (each test uses its own database), so the suite starts it once.</summary>
[CollectionDefinition(Name)]
public sealed class ServerCollection : ICollectionFixture<TestServer>
{
    public const string Name = "Folio server";
}
