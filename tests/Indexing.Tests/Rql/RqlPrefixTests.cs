using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

/// <summary>
/// A query cut anywhere, or garbled, answers a positioned <see cref="RqlParseException"/> (the server's
/// 400) and never another exception: quoted names and mixed paths add states to the lexer, and each of
/// them must end in a parse error when the text stops inside it.
/// </summary>
public sealed class RqlPrefixTests
{
    public static TheoryData<string> Queries() =>
    [
        "from Movies where 'Major Genre' = 'Drama' and 'IMDB Rating' > 8 order by 'IMDB Rating' as double desc select 'US Gross' as Gross, 'a.b' include 'Ref Ids' limit 5 offset 1",
        "from Movies where search('Plot Summary', 'late train') or startsWith(\"Title\", 'Al') and endsWith('e-mail', '.org') and exists(Address.'e-mail') and not 'It\\'s' = 'x'",
        "from Orders where 'Sales Lines'[].'Unit Price' between 10 and 20 and \"名前\" in ('a', 'b', $p) select facet('Major Genre'), facet('IMDB Rating' < 5, 'IMDB Rating' between 5 and 7, 'IMDB Rating' >= 7)",
        "from index 'Movies/ByGenre' where '2nd' = 1 and '@id' != null and '🎬' = 'x' and 'back\\\\slash' = '' and 'It''s' = 1 order by score(), Name asc include Lines[].Product, \"'a.b'\", Refs.'c d'",
        "from 'My Things' where id() in ('a/1', 'a/2') and '' = 1 -- a comment\n select id() as Id, Tags[], '[x]'[] limit 1, 2",
        "from Products select facet(Brand, sum(Price), min('Unit Price') as Cheapest, avg(Lines[].Qty), $o) as Brands, facet(Price < 10, Price >= 10, max(Stock), $p), facet(id('facets/x')), facet(id($s))",
        "from Companies where true and not exists(F) and exact(Name in ('A', 'b')) and regex(Name, '^[NA]') and Tags all in ('a', $t) and search(Notes, 'fluent french', and) order by Code as alphanumeric desc select distinct Country, City include timings(), explanations()",
        "from Companies where exact(Name = 'x' or startsWith(Code, 'A')) order by random('seed') select Name include Company, timings() limit 5",
    ];

    [Theory]
    [MemberData(nameof(Queries))]
    public void Parse_EveryPrefix_ParsesOrThrowsAPositionedParseError(string query)
    {
        RqlParser.Parse(query);
        for (var length = 0; length < query.Length; length++)
            AssertParsesOrFailsWithAPosition(query[..length]);
    }

    [Theory]
    [MemberData(nameof(Queries))]
    public void Parse_EveryCharacterDeletedOrDoubled_ParsesOrThrowsAPositionedParseError(string query)
    {
        for (var i = 0; i < query.Length; i++)
        {
            AssertParsesOrFailsWithAPosition(query.Remove(i, 1));
            AssertParsesOrFailsWithAPosition(query.Insert(i, query[i].ToString()));
        }
    }

    [Fact]
    public void Parse_RandomTokenSoup_ParsesOrThrowsAPositionedParseError()
    {
        string[] pieces =
        [
            "from", "index", "where", "order", "by", "select", "include", "limit", "offset", "and", "or", "not",
            "between", "in", "as", "desc", "facet", "search", "exists", "id", "score", "Name", "a.b", "'a.b'",
            "'Major Genre'", "\"x\"", "'", "\"", "\\", ".", "[", "]", "[]", "(", ")", ",", "=", "<", ">=", "!=",
            "5", "-1.5e3", "$p", "$", "'It\\'s'", "''", "名前", "🎬", "\uD83C", "--", "\n", " ", "'a'.b", "@x",
        ];
        var random = new Random(20261126);
        for (var round = 0; round < 20_000; round++)
        {
            var text = new System.Text.StringBuilder(round % 3 == 0 ? "from M where " : "");
            var count = random.Next(1, 16);
            for (var i = 0; i < count; i++)
            {
                text.Append(pieces[random.Next(pieces.Length)]);
                if (random.Next(3) != 0)
                    text.Append(' ');
            }
            AssertParsesOrFailsWithAPosition(text.ToString());
        }
    }

    private static void AssertParsesOrFailsWithAPosition(string text)
    {
        try
        {
            RqlParser.Parse(text);
        }
        catch (RqlParseException e)
        {
            Assert.InRange(e.Position, 0, text.Length);
        }
        catch (Exception e)
        {
            Assert.Fail($"'{text}' threw {e.GetType().Name} instead of a parse error: {e}");
        }
    }
}
