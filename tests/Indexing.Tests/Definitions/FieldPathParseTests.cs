using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Tests.Definitions;

public sealed class FieldPathParseTests
{
    /// <summary>A path, the names its segments hold ('|' between them, '[]' after a name that has the marker), and its canonical text.</summary>
    public static TheoryData<string, string[], string> AwkwardPaths => new()
    {
        { "Name", ["Name"], "Name" },
        { "Lines[].Product", ["Lines[]", "Product"], "Lines[].Product" },
        { "ShipTo.Country", ["ShipTo", "Country"], "ShipTo.Country" },
        { "'Major Genre'", ["Major Genre"], "'Major Genre'" },
        { "\"IMDB Rating\"", ["IMDB Rating"], "'IMDB Rating'" },
        { "Address.'e-mail'", ["Address", "e-mail"], "Address.e-mail" },
        { "Address.e-mail", ["Address", "e-mail"], "Address.e-mail" },
        { "\"a.b\"[]", ["a.b[]"], "'a.b'[]" },
        { "Lines[].'Unit Price'", ["Lines[]", "Unit Price"], "Lines[].'Unit Price'" },
        { "名前.住所", ["名前", "住所"], "名前.住所" },
        { "'x[0]'", ["x[0]"], "'x[0]'" },
        { "'a]b'", ["a]b"], "'a]b'" },
        { "2ndLine.42", ["2ndLine", "42"], "2ndLine.42" },
        { "@metadata.@id", ["@metadata", "@id"], "@metadata.@id" },
        { "$type.price$", ["$type", "price$"], "$type.price$" },
        { "back\\slash", ["back\\slash"], "back\\slash" },
        { "'back\\\\slash'", ["back\\slash"], "back\\slash" },
        { "'O\\'Brien'", ["O'Brien"], "\"O'Brien\"" },
        { "\"O'Brien\"", ["O'Brien"], "\"O'Brien\"" },
        { "\"say \\\"hi\\\"\"", ["say \"hi\""], "'say \"hi\"'" },
        { "'both \\' and \" quotes'", ["both ' and \" quotes"], "'both \\' and \" quotes'" },
        { "''", [""], "''" },
        { "''[].x", ["[]", "x"], "''[].x" },
        { "'tab\there'", ["tab\there"], "'tab\there'" },
        { "'line\nbreak'", ["line\nbreak"], "'line\nbreak'" },
        { "'no\u00A0break'", ["no\u00A0break"], "'no\u00A0break'" },
        { "emoji🙂", ["emoji🙂"], "emoji🙂" },
        { "'  '", ["  "], "'  '" },
        { "Matrix[]", ["Matrix[]"], "Matrix[]" },
    };

    [Theory]
    [MemberData(nameof(AwkwardPaths))]
    public void Parse_AwkwardNames_ReadsTheNamesAndRoundTripsThroughCanonicalText(string text, string[] expected, string canonical)
    {
        var path = FieldPath.Parse(text);

        Assert.Equal(expected.Select(ToSegment), path.Segments);
        Assert.Equal(canonical, path.Text);
        Assert.Equal(path.Segments, FieldPath.Parse(path.Text).Segments);
        Assert.Equal(canonical, FieldPath.Format(path.Segments));
    }

    [Theory]
    [InlineData("", 0, "is empty")]
    [InlineData("a..b", 2, "has an empty segment at position 2")]
    [InlineData(".a", 0, "starts with '.' at position 0")]
    [InlineData("a.", 2, "ends with '.' at position 2")]
    [InlineData("[]", 0, "starts with '[' at position 0")]
    [InlineData("a.[]", 2, "has an empty segment at position 2")]
    [InlineData("Lines[0]", 5, "has a '[' not followed by ']' at position 5")]
    [InlineData("Lines[", 5, "has a '[' not followed by ']' at position 5")]
    [InlineData("Lines[]x", 7, "has 'x' after [] at position 7")]
    [InlineData("Tags[][]", 6, "has a second [] at position 6")]
    [InlineData("a]b", 1, "has a ']' without a '[' at position 1")]
    [InlineData("Ref Ids", 3, "has a space in a bare name at position 3; write the name in quotes: 'Ref Ids'")]
    [InlineData("Address.e mail.x", 9, "write the name in quotes: 'e mail'")]
    [InlineData("a\tb", 1, "has whitespace (U+0009) in a bare name at position 1")]
    [InlineData("a\u0001b", 1, "has U+0001 in a bare name at position 1")]
    [InlineData(" Name", 0, "has a space in a bare name at position 0")]
    [InlineData("O'Brien", 1, "has a single quote inside a name at position 1; quote the whole name instead: \"O'Brien\"")]
    [InlineData("say\"hi\"", 3, "has a double quote inside a name at position 3")]
    [InlineData("'open", 0, "opens a single quote that is never closed at position 0")]
    [InlineData("x.\"open", 2, "opens a double quote that is never closed at position 2")]
    [InlineData("'bad\\x'", 4, "has a backslash that escapes neither the quote nor a backslash at position 4")]
    [InlineData("'a'b", 3, "has 'b' after a quoted name at position 3")]
    [InlineData("'a' ", 3, "has a space after a quoted name at position 3")]
    public void Parse_MalformedPath_ThrowsErrorSayingWhatAndWhere(string text, int position, string message)
    {
        var error = Assert.Throws<FieldPathException>(() => FieldPath.Parse(text));

        Assert.Equal(text, error.Path);
        Assert.Equal(position, error.Position);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.StartsWith($"The path '{text}' ", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_UnpairedSurrogate_ThrowsErrorSayingWhere()
    {
        // Built at run time: test runners mangle lone surrogates in theory data.
        var bare = "a" + (char)0xD800 + "b";
        var quoted = "'a" + (char)0xDC00 + "'";

        var inBare = Assert.Throws<FieldPathException>(() => FieldPath.Parse(bare));
        var inQuotes = Assert.Throws<FieldPathException>(() => FieldPath.Parse(quoted));

        Assert.Equal(1, inBare.Position);
        Assert.Contains("has an unpaired surrogate (U+D800) at position 1", inBare.Message, StringComparison.Ordinal);
        Assert.Equal(2, inQuotes.Position);
        Assert.Contains("has an unpaired surrogate (U+DC00) at position 2", inQuotes.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Format_Segments_QuotesOnlyTheNamesThatNeedIt()
    {
        PathSegment[] segments = [new("Address"), new("e-mail"), new("Unit Price", MarksArray: true), new("a.b"), new("名前")];

        var text = FieldPath.Format(segments);

        Assert.Equal("Address.e-mail.'Unit Price'[].'a.b'.名前", text);
        Assert.Equal(segments, FieldPath.Parse(text).Segments);
    }

    [Fact]
    public void Format_UnpairedSurrogateOrNoSegments_Throws()
    {
        Assert.Throws<ArgumentException>(() => FieldPath.Format([new PathSegment("a" + (char)0xD800)]));
        Assert.Throws<ArgumentException>(() => FieldPath.Format([]));
    }

    [Fact]
    public void Values_ArraysWithOrWithoutMarker_AreWalkedAlike()
    {
        using var document = JsonDocument.Parse("""{"Tags":["t/1",["t/2"]],"Lines":[{"Unit Price":1},{"Unit Price":2}],"a.b":"x"}""");
        var root = document.RootElement;

        Assert.Equal(["t/1", "t/2"], Strings(FieldPath.Parse("Tags").Values(root)));
        Assert.Equal(["t/1", "t/2"], Strings(FieldPath.Parse("Tags[]").Values(root)));
        Assert.Equal(["1", "2"], FieldPath.Parse("Lines.'Unit Price'").Values(root).Select(v => v.GetRawText()));
        Assert.Equal(["x"], Strings(FieldPath.Parse("'a.b'").Values(root)));
        Assert.Empty(FieldPath.Parse("a.b").Values(root));
    }

    [Fact]
    public void Select_LastArray_IsKeptWholeUnlessMarked()
    {
        using var document = JsonDocument.Parse("""{"Tags":["t/1","t/2"]}""");
        var values = new List<JsonElement>();

        Assert.False(FieldPath.Parse("Tags").Select(document.RootElement, values));
        Assert.Equal(JsonValueKind.Array, Assert.Single(values).ValueKind);
        values.Clear();
        Assert.True(FieldPath.Parse("Tags[]").Select(document.RootElement, values));
        Assert.Equal(["t/1", "t/2"], Strings(values));
    }

    private static PathSegment ToSegment(string written) =>
        written.EndsWith("[]", StringComparison.Ordinal) ? new PathSegment(written[..^2], MarksArray: true) : new PathSegment(written);

    private static string[] Strings(List<JsonElement> values) => values.Select(v => v.GetString()!).ToArray();
}
