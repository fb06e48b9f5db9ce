using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

public sealed class LuceneSyntaxTests
{
    private static LuceneGroup Group(string text) => Assert.IsType<LuceneGroup>(LuceneSyntax.Parse(text, 0, exact: true));

    private static LuceneOccur[] Occurs(string text) => [.. Group(text).Clauses.Select(c => c.Occur)];

    [Theory]
    [InlineData("a b", new[] { LuceneOccur.Should, LuceneOccur.Should })]
    [InlineData("a OR b", new[] { LuceneOccur.Should, LuceneOccur.Should })]
    [InlineData("a || b", new[] { LuceneOccur.Should, LuceneOccur.Should })]
    [InlineData("a AND b OR c", new[] { LuceneOccur.Must, LuceneOccur.Must, LuceneOccur.Should })]
    [InlineData("a && b", new[] { LuceneOccur.Must, LuceneOccur.Must })]
    [InlineData("+a -b c", new[] { LuceneOccur.Must, LuceneOccur.MustNot, LuceneOccur.Should })]
    [InlineData("a AND NOT b", new[] { LuceneOccur.Must, LuceneOccur.MustNot })]
    [InlineData("NOT a AND b", new[] { LuceneOccur.MustNot, LuceneOccur.Must })]
    [InlineData("!a b", new[] { LuceneOccur.MustNot, LuceneOccur.Should })]
    public void Parse_Clauses_TakeTheOccurOfLucenesClassicParser(string text, LuceneOccur[] expected) =>
        Assert.Equal(expected, Occurs(text));

    [Fact]
    public void Parse_OneClause_IsTheClauseItself_UnlessExcluded()
    {
        Assert.Equal(new LuceneTerm(null, "bob", LuceneTermKind.Word, 0), LuceneSyntax.Parse("  +bob ", 0, exact: true));
        Assert.Equal(LuceneOccur.MustNot, Assert.Single(Group("-bob").Clauses).Occur);
    }

    [Fact]
    public void Parse_FieldBeforeAGroup_NamesTheFieldOfEveryTermInIt()
    {
        var group = Group("Title:(fox \"quick dog\") Body:cat other");
        var inner = Assert.IsType<LuceneGroup>(group.Clauses[0].Node);
        Assert.Equal(new LuceneTerm("Title", "fox", LuceneTermKind.Word, 0), inner.Clauses[0].Node);
        Assert.Equal(new LuceneTerm("Title", "quick dog", LuceneTermKind.Phrase, 0), inner.Clauses[1].Node);
        Assert.Equal(new LuceneTerm("Body", "cat", LuceneTermKind.Word, 0), group.Clauses[1].Node);
        Assert.Equal(new LuceneTerm(null, "other", LuceneTermKind.Word, 0), group.Clauses[2].Node);
    }

    [Theory]
    [InlineData("[1 TO 5]", "1", true, "5", true)]
    [InlineData("{1 TO 5}", "1", false, "5", false)]
    [InlineData("[a TO z}", "a", true, "z", false)]
    [InlineData("{* TO 5]", null, false, "5", true)]
    [InlineData("[\"a b\" TO *]", "a b", true, null, true)]
    [InlineData("[2020-01-01T00:00:00 TO 2020-12-31T23:59:59.999Z}", "2020-01-01T00:00:00", true, "2020-12-31T23:59:59.999Z", false)]
    [InlineData("[\\* TO a:b]", "*", true, "a:b", true)]
    public void Parse_Range_KeepsItsBoundsAndEnds(string text, string? lower, bool lowerInclusive, string? upper, bool upperInclusive) =>
        Assert.Equal(new LuceneRange(null, lower, lowerInclusive, upper, upperInclusive), LuceneSyntax.Parse(text, 0, exact: true));

    [Theory]
    [InlineData("roam~", LuceneTermKind.Fuzzy, 2)]
    [InlineData("roam~1", LuceneTermKind.Fuzzy, 1)]
    [InlineData("roam~0.8", LuceneTermKind.Fuzzy, 0.8)]
    [InlineData("te?t*", LuceneTermKind.Wildcard, 0)]
    [InlineData("\"quick fox\"~3", LuceneTermKind.Phrase, 3)]
    public void Parse_Term_HasItsKindAndNumber(string text, LuceneTermKind kind, double number)
    {
        var term = Assert.IsType<LuceneTerm>(LuceneSyntax.Parse(text, 0, exact: true));
        Assert.Equal(kind, term.Kind);
        Assert.Equal(number, term.Number);
    }

    [Fact]
    public void Parse_BoostAndEscapes_AreReadAsLuceneWritesThem()
    {
        Assert.Equal(new LuceneBoost(new LuceneTerm(null, "a b", LuceneTermKind.Phrase, 2), 1.5f), LuceneSyntax.Parse("\"a b\"~2^1.5", 0, exact: true));
        Assert.Equal(new LuceneTerm(null, "a:b*", LuceneTermKind.Word, 0), LuceneSyntax.Parse(@"a\:b\*", 0, exact: true));
        Assert.Equal(LuceneTermKind.MatchAll, Assert.IsType<LuceneTerm>(LuceneSyntax.Parse("*:*", 0, exact: true)).Kind);
        // An operator word is a word where no space follows it.
        Assert.Equal(new LuceneTerm(null, "ANDROID", LuceneTermKind.Word, 0), LuceneSyntax.Parse("ANDROID", 0, exact: true));
    }

    [Theory]
    [InlineData("", 10)]
    [InlineData("   ", 13)]
    [InlineData("(a", 12)]
    [InlineData("a)", 11)]
    [InlineData("AND a", 10)]
    [InlineData("[1 TO", 10)]
    [InlineData("[1 5]", 10)]
    [InlineData("a^", 11)]
    [InlineData("a^0", 11)]
    [InlineData("roam~3", 14)]
    [InlineData("\"abc", 10)]
    [InlineData("\"a b\"~x", 15)]
    [InlineData("a\\", 11)]
    [InlineData("()", 11)]
    [InlineData("f*:x", 10)]
    [InlineData(")", 10)]
    [InlineData("a OR AND b", 12)]
    [InlineData("a || && b", 12)]
    [InlineData("Title:Body:x", 16)]
    [InlineData("a\\** b", 14)]
    public void Parse_BadText_ThrowsAParseErrorAtItsPlaceInTheQuery(string text, int position)
    {
        var error = Assert.Throws<RqlParseException>(() => LuceneSyntax.Parse(text, 10, exact: true));
        Assert.Equal(position, error.Position);
        Assert.StartsWith("lucene(): ", error.Message, StringComparison.Ordinal);
        // From a parameter, the text's offsets mean nothing in the query: the error names where the parameter is.
        Assert.Equal(10, Assert.Throws<RqlParseException>(() => LuceneSyntax.Parse(text, 10, exact: false)).Position);
    }

    [Fact]
    public void Parse_EveryPrefix_ParsesOrThrowsAParseError()
    {
        const string text = "+Title:(\"quick fox\"~2 OR jump*^2) AND NOT Body:{a TO \"z z\"] || -roam~0.7 !x\\:y [* TO 5} *:* (a && (b || c))";
        LuceneSyntax.Parse(text, 0, exact: true);
        for (var length = 0; length < text.Length; length++)
        {
            try
            {
                LuceneSyntax.Parse(text[..length], 0, exact: true);
            }
            catch (RqlParseException e)
            {
                Assert.InRange(e.Position, 0, length);
            }
        }
    }

    [Fact]
    public void Parse_ManyFieldPrefixesOrClauses_AreRefusedBeforeTheStackOrTheQueryGrows()
    {
        Assert.Throws<RqlParseException>(() => LuceneSyntax.Parse(string.Concat(Enumerable.Repeat("a:", 20_000)) + "x", 0, exact: true));
        Assert.Throws<RqlParseException>(() => LuceneSyntax.Parse(string.Join(' ', Enumerable.Repeat("w", LuceneSyntax.MaxClauses + 1)), 0, exact: true));
        Assert.Equal(LuceneSyntax.MaxClauses, Group(string.Join(' ', Enumerable.Repeat("w", LuceneSyntax.MaxClauses))).Clauses.Count);
    }

    [Fact]
    public void Parse_DeepParentheses_AreRefusedBeforeTheStackRunsOut()
    {
        var text = new string('(', 10_000) + "a" + new string(')', 10_000);
        Assert.Throws<RqlParseException>(() => LuceneSyntax.Parse(text, 0, exact: true));
        var allowed = new string('(', LuceneSyntax.MaxNesting - 1) + "a" + new string(')', LuceneSyntax.MaxNesting - 1);
        Assert.Equal(new LuceneTerm(null, "a", LuceneTermKind.Word, 0), LuceneSyntax.Parse(allowed, 0, exact: true));
    }
}
