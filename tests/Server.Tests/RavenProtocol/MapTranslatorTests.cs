using Folio.Indexing.Definitions;
using Folio.Server.RavenProtocol.Indexes;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>Which map forms of the seeds' system are translated, to what, and which are refused.</summary>
public sealed class MapTranslatorTests
{
    [Theory]
    [InlineData("from u in docs.Users select new { u.Name, City = u.Address.City }")]
    [InlineData("docs.Users.Select(u => new { u.Name, City = u.Address.City })")]
    [InlineData("map('Users', u => ({ Name: u.Name, City: u.Address.City }))")]
    [InlineData("map(\"Users\", function (u) { return { Name: u.Name, 'City': u.Address.City }; })")]
    [InlineData("// a comment\nmap('Users', (u) => { return { Name: u.Name.Boost(2), City: u.Address.City } })")]
    public void Translate_ReadsPathsAndCollection_InEachForm(string map)
    {
        MapTranslation translated = MapTranslator.Translate(map);
        Assert.Equal("Users", translated.Collection);
        Assert.Equal([new("Name", "Name"), new("City", "Address.City")], translated.Fields);
    }

    [Fact]
    public void Translate_StepsIntoArrays_WhenAFieldSelectsFromOne()
    {
        MapTranslation translated = MapTranslator.Translate("from o in docs.Orders select new { Products = o.Lines.Select(l => l.Product) }");
        Assert.Equal("Lines[].Product", Assert.Single(translated.Fields).Value);
    }

    [Theory]
    [InlineData("from u in docs.Users where u.Age > 3 select new { u.Name }")]
    [InlineData("from u in docs.Users select new { a = 5 / u.Age }")]
    [InlineData("from o in docs.Orders from l in o.Lines select new { l.Product }")]
    [InlineData("docs.Users.Select(u => new { Related = LoadDocument(u.Related, \"Others\") })")]
    [InlineData("map('Users', x => x)")]
    [InlineData("map('Users', u => ({ full: u.First + ' ' + u.Last }))")]
    public void Translate_Refuses_WhatIsNotAPathSelection(string map)
    {
        var refused = Assert.Throws<IndexDefinitionException>(() => MapTranslator.Translate(map));
        Assert.Contains("Folio cannot translate", refused.Message);
    }
}
