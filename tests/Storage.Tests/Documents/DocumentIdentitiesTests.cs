using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Documents;

/// <summary>Identities taken and seeded directly are the same counters server-made ids (<c>prefix|</c>) use.</summary>
public class DocumentIdentitiesTests
{
    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    [Fact]
    public async Task NextAndSeed_ShareTheCounterOfServerMadeIds()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        Assert.Equal(1, await store.NextIdentityAsync("Users"));
        Assert.Equal("users/2", (await store.PutAsync("users|", Json("{}"))).Id);
        Assert.Equal(9, await store.SeedIdentityAsync("users/", 9, force: false));
        Assert.Equal(9, await store.SeedIdentityAsync("users", 4, force: false));
        Assert.Equal("users/10", (await store.PutAsync("users|", Json("{}"))).Id);
        Assert.Equal(0, await store.SeedIdentityAsync("users|", 0, force: true));
        // Forced back below ids in use: the next server-made id skips those taken.
        Assert.Equal("users/1", (await store.PutAsync("users|", Json("{}"))).Id);
        Assert.Equal("users/3", (await store.PutAsync("users|", Json("{}"))).Id);

        using var reader = store.OpenReader();
        var identities = reader.Identities();
        Assert.Equal(3, identities["users|"]);
        Assert.Single(identities);
    }

    [Theory]
    [InlineData("")]
    [InlineData("|")]
    [InlineData("/")]
    [InlineData("a\u0001b")]
    public async Task Next_UnusableName_ThrowsAndWritesNothing(string name)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        await Assert.ThrowsAsync<DocumentValidationException>(() => store.NextIdentityAsync(name));

        using var reader = store.OpenReader();
        Assert.Empty(reader.Identities());
    }

    [Fact]
    public async Task Seed_NegativeValue_Throws()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Assert.ThrowsAsync<DocumentValidationException>(() => store.SeedIdentityAsync("users", -1, force: true));
    }
}
