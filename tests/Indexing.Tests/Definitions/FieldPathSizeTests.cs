using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Tests.Definitions;

/// <summary>
/// A last <c>Count</c> or <c>Length</c> the value before it does not hold is that value's size, as the seeds' paths read
/// it (<c>from Orders where Lines.Count > 5</c>, which their .NET client writes for <c>o.Lines.Count > 5</c>); a property of
/// that name is read as any other.
/// </summary>
public sealed class FieldPathSizeTests
{
    [Theory]
    [InlineData("Lines.Count", """{"Lines":[{"P":1},{"P":2},{"P":3}]}""", "3")]
    [InlineData("Lines.Length", """{"Lines":[]}""", "0")]
    [InlineData("Tags.count", """{"Tags":["a","b"]}""", "2")]
    [InlineData("Name.Length", """{"Name":"Zoë"}""", "3")]
    [InlineData("Address.Count", """{"Address":{"City":"Oslo","Zip":"0150"}}""", "2")]
    [InlineData("Orders[].Lines.Count", """{"Orders":[{"Lines":[1,2]},{"Lines":[1]}]}""", "2,1")]
    [InlineData("Lines.Count", """{"Lines":[{"Count":7},{"Count":8}]}""", "7,8")]
    [InlineData("Lines[].Count", """{"Lines":[1,2,3]}""", "")]
    [InlineData("Lines.Count", """{"Lines":[{"Count":5},{"X":1}]}""", "5")]
    [InlineData("Lines[].Count", """{"Lines":[{"Count":5},{"X":1,"Y":2}]}""", "5")]
    [InlineData("Name.Length", """{"Name":"a\u00e9\n😀"}""", "5")]
    [InlineData("Stats.Count", """{"Stats":{"Count":41}}""", "41")]
    [InlineData("Freight.Length", """{"Freight":12.5}""", "")]
    [InlineData("Missing.Count", """{"Other":1}""", "")]
    public void Values_LastCountOrLengthNotHeld_IsTheSizeOfWhatItFollows(string path, string json, string expected)
    {
        using var document = JsonDocument.Parse(json);
        var values = FieldPath.Parse(path).Values(document.RootElement);
        Assert.Equal(expected, string.Join(",", values.Select(v => v.GetRawText())));
    }

    [Fact]
    public void Select_LastCount_ProjectsTheArraysSize()
    {
        using var document = JsonDocument.Parse("""{"Lines":[{"P":1},{"P":2}]}""");
        var values = new List<JsonElement>();
        Assert.False(FieldPath.Parse("Lines.Count").Select(document.RootElement, values));
        Assert.Equal(2, Assert.Single(values).GetInt32());
    }

    [Fact]
    public void Values_SizesFromManyThreads_AreEachDocumentsOwn()
    {
        var path = FieldPath.Parse("Tags.Count");
        Parallel.For(0, 2_000, i =>
        {
            using var document = JsonDocument.Parse($$"""{"Tags":[{{string.Join(",", Enumerable.Repeat("1", i % 300))}}]}""");
            Assert.Equal(i % 300, Assert.Single(path.Values(document.RootElement)).GetInt32());
        });
    }
}
