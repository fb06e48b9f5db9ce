using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Server.RavenProtocol.Indexes;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>Which map/reduce forms of the seeds' system are translated into Folio's reduce, to what, and which are refused.</summary>
public sealed class ReduceTranslatorTests
{
    [Theory]
    [InlineData("map('Users', u => ({ name: u.name, count: 1 }))", "groupBy(x => x.name).aggregate(g => {\n return {\n name: g.key,\n count: g.values.reduce((a, b) => a + b.count, 0)\n }\n })")]
    [InlineData("map('Users', function (u) { return { name: u.name, count: 1 }; })", "groupBy(x => ({ name: x.name })).aggregate(g => ({ name: g.key.name, count: g.values.reduce((total, val) => val.count + total, 0) }))")]
    [InlineData("from u in docs.Users select new { name = u.name, count = 1 }", "from r in results group r by r.name into g select new { name = g.Key, count = g.Sum(x => x.count) }")]
    [InlineData("docs.Users.Select(u => new { name = u.name, count = 1 })", "results.GroupBy(r => r.name).Select(g => new { name = g.Key, count = g.Count() })")]
    public void Translate_CountsEntriesPerGroup_InEachForm(string map, string reduce)
    {
        IndexDefinition definition = Translate(map, reduce);
        ReduceDefinition translated = Assert.IsType<ReduceDefinition>(definition.Reduce);
        GroupByField group = Assert.Single(translated.GroupBy);
        Assert.Equal("name", group.Name);
        Assert.Equal("name", group.Path.ToString());
        AggregationDefinition count = Assert.Single(translated.Aggregations);
        Assert.Equal(("count", AggregationOp.Count, (FieldPath?)null), (count.Name, count.Op, count.Path));
    }

    [Fact]
    public void Translate_SumsMapFieldsByTheirPaths_WithCompoundKeys()
    {
        IndexDefinition definition = Translate(
            "docs.Orders.Select(o => new { Product = o.Line.Product, OrderedAt = o.At, Profit = o.Line.Profit })",
            "results.GroupBy(r => new {\n OrderedAt = r.OrderedAt,\n Product = r.Product\n}).Select(g => new {\n Product = g.Key.Product,\n OrderedAt = g.Key.OrderedAt,\n Profit = Enumerable.Sum(g, r => ((decimal) r.Profit))\n})");
        ReduceDefinition reduce = definition.Reduce!;
        Assert.Equal(["Product:Line.Product", "OrderedAt:At"], reduce.GroupBy.Select(g => g.Name + ":" + g.Path));
        AggregationDefinition profit = Assert.Single(reduce.Aggregations);
        Assert.Equal((AggregationOp.Sum, "Line.Profit"), (profit.Op, profit.Path!.ToString()));
        Assert.Equal(["Orders"], definition.Collections);
    }

    [Fact]
    public void Translate_SumsWhatAScriptMapReturns_WhenTheMapIsNotPaths()
    {
        // A map Folio cannot read as paths runs per document through its script; the reduce sums its outputs.
        IndexDefinition definition = Translate("map('Users', u => ({ name: u.name, count: 2 }))", "groupBy(x => x.name).aggregate(g => ({ name: g.key, count: g.values.reduce((a, b) => a + b.count, 0) }))");
        Assert.NotNull(definition.MapScript);
        AggregationDefinition count = Assert.Single(definition.Reduce!.Aggregations);
        Assert.Equal((AggregationOp.Sum, "count"), (count.Op, count.Path!.ToString()));
    }

    [Theory]
    [InlineData("map('Users', u => ({ name: u.name, age: u.age }))", "groupBy(x => x.name).aggregate(g => ({ name: g.key, avg: g.values.reduce((a, b) => a + b.age, 0) / g.values.length }))")]
    [InlineData("map('Users', u => ({ name: u.name, age: u.age }))", "groupBy(x => x.name).aggregate(g => ({ total: g.values.reduce((a, b) => a + b.age, 0) }))")]
    [InlineData("map('Users', u => ({ name: u.name, age: u.age }))", "groupBy(x => x.city).aggregate(g => ({ city: g.key }))")]
    [InlineData("map('Users', u => ({ name: u.name, age: u.age }))", "results.Where(r => r.age > 3)")]
    public void Translate_Refuses_WhatIsNotAKeySumOrCount(string map, string reduce)
    {
        var refused = Assert.Throws<IndexDefinitionException>(() => Translate(map, reduce));
        Assert.Contains("Folio cannot translate", refused.Message);
    }

    [Fact]
    public void Translate_RunsAMapWithAConstant_ThroughItsScript()
    {
        IndexDefinition definition = Translate("map('Users', u => ({ name: u.name, count: 1 }))", null);
        Assert.NotNull(definition.MapScript);
        Assert.Null(definition.Reduce);
    }

    private static IndexDefinition Translate(string map, string? reduce)
    {
        string json = JsonSerializer.Serialize(new { Name = "Users/Counts", Maps = new[] { map }, Reduce = reduce });
        using JsonDocument document = JsonDocument.Parse(json);
        return RavenIndexDefinition.Translate(document.RootElement);
    }
}
