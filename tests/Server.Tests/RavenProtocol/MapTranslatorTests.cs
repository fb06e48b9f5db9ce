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
    [InlineData("map('Shops', s => ({ venue: s.venue, coordinates: createSpatialField(s.location.lat, s.location.lng) }))")]
    [InlineData("from s in docs.Shops select new { s.venue, coordinates = CreateSpatialField(s.location.lat, s.location.lng) }")]
    public void Translate_MakesASpatialField_OfCreateSpatialField(string map)
    {
        MapTranslation translated = MapTranslator.Translate(map);
        Assert.Equal([new("venue", "venue")], translated.Fields);
        var (name, source) = Assert.Single(translated.Spatial);
        Assert.Equal("coordinates", name);
        Assert.Equal("location.lat", source.Latitude!.Text);
        Assert.Equal("location.lng", source.Longitude!.Text);
        Assert.Null(source.Wkt);
    }

    [Fact]
    public void Translate_MakesAWktSpatialField_OfOnePath()
    {
        var (_, source) = Assert.Single(MapTranslator.Translate("map('Areas', a => ({ shape: createSpatialField(a.wkt) }))").Spatial);
        Assert.Equal("wkt", source.Wkt!.Text);
    }

    [Theory]
    [InlineData("map('Shops', s => ({ coordinates: createSpatialField(s.lat, s.lng, s.alt) }))")]
    [InlineData("map('Shops', s => ({ coordinates: createSpatialField(s.lat + 1, s.lng) }))")]
    [InlineData("from s in docs.Shops select new { CreateSpatialField(s.lat, s.lng) }")]
    public void Translate_RefusesSpatialFields_ItCannotReadAsPaths(string map)
    {
        var refused = Assert.Throws<IndexDefinitionException>(() => MapTranslator.Translate(map));
        Assert.Contains("Folio cannot translate", refused.Message);
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
