namespace Folio.Storage.Tests;

public class SmokeTests
{
    [Fact]
    public void Placeholder_Builds() => Assert.True(true);
}
