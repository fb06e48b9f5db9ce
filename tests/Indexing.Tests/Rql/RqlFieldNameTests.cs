using Folio.Indexing.Definitions;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

/// <summary>
/// Any property name is a field in RQL: in field position (left of an operator, first argument of a
/// function or facet, order by, select) a quoted name is one property whatever it holds, and names join
/// into the same <see cref="FieldPath"/> definitions parse; in value position a quoted text is a string.
/// </summary>
public sealed class RqlFieldNameTests
{
    [Fact]
    public void Parse_QuotedNameLeftOfAnOperator_IsTheFieldAndTheRightSideAValue()
    {
        var query = RqlParser.Parse("from Movies where 'Major Genre' = 'Drama'");

        var comparison = Assert.IsType<RqlComparison>(query.Where);
        Assert.Equal([new PathSegment("Major Genre")], comparison.Field.Path!.Segments);
        Assert.Equal("Major Genre", comparison.Field.Name);
        Assert.Equal("Drama", Assert.IsType<RqlLiteral>(comparison.Value).Value);
    }

    [Fact]
    public void Parse_QuotedNameRightOfAnOperator_IsAValue()
    {
        var query = RqlParser.Parse("from Movies where Genre = 'Major Genre'");

        var comparison = Assert.IsType<RqlComparison>(query.Where);
        Assert.Equal("Genre", comparison.Field.Name);
        Assert.Equal("Major Genre", Assert.IsType<RqlLiteral>(comparison.Value).Value);
    }

    [Theory]
    [InlineData("from M where 'IMDB Rating' > 8")]
    [InlineData("from M where 'IMDB Rating' between 5 and 8")]
    [InlineData("from M where 'IMDB Rating' in (5, 8)")]
    [InlineData("from M where not 'IMDB Rating' = 8")]
    [InlineData("from M where ('IMDB Rating' != 8 or 'IMDB Rating' <= 2)")]
    [InlineData("from M where search('IMDB Rating', 'x')")]
    [InlineData("from M where startsWith(\"IMDB Rating\", 'x')")]
    [InlineData("from M where endsWith('IMDB Rating', 'x')")]
    [InlineData("from M where exists('IMDB Rating')")]
    [InlineData("from M order by 'IMDB Rating' as double desc")]
    [InlineData("from M select 'IMDB Rating'")]
    [InlineData("from M select facet('IMDB Rating')")]
    [InlineData("from M select facet('IMDB Rating' < 5, 'IMDB Rating' between 5 and 7, 'IMDB Rating' >= 7)")]
    public void Parse_QuotedNameInFieldPosition_IsOneProperty(string rql)
    {
        var fields = FieldsOf(RqlParser.Parse(rql));

        Assert.NotEmpty(fields);
        Assert.All(fields, field => Assert.Equal([new PathSegment("IMDB Rating")], field.Path!.Segments));
    }

    [Theory]
    [InlineData("Address.'e-mail'", "Address.e-mail")]
    [InlineData("'Sales Lines'[].'Unit Price'", "'Sales Lines'[].'Unit Price'")]
    [InlineData("'Sales Lines'[]", "'Sales Lines'[]")]
    [InlineData("Lines[].Product", "Lines[].Product")]
    [InlineData("\"名前\"", "名前")]
    [InlineData("名前.Имя", "名前.Имя")]
    [InlineData("'a.b'", "'a.b'")]
    [InlineData("a.b", "a.b")]
    [InlineData("'a'.'b'", "a.b")]
    [InlineData("'It\\'s'", "\"It's\"")]
    [InlineData("'It''s'", "\"It's\"")]
    [InlineData("\"say \\\"hi\\\"\"", "'say \"hi\"'")]
    [InlineData("'back\\\\slash'", "back\\slash")]
    [InlineData("'x[0]'", "'x[0]'")]
    [InlineData("'2nd'", "2nd")]
    [InlineData("@metadata.'@collection'", "@metadata.@collection")]
    [InlineData("''", "''")]
    [InlineData("'🎬 title'", "'🎬 title'")]
    [InlineData("'where'", "where")]
    public void Parse_FieldPath_GivesTheSegmentsADefinitionPathGives(string field, string definitionPath)
    {
        var query = RqlParser.Parse($"from M where {field} = 1 order by {field} select {field}");

        var expected = FieldPath.Parse(definitionPath).Segments;
        var fields = FieldsOf(query);
        Assert.Equal(3, fields.Count);
        Assert.All(fields, f => Assert.Equal(expected, f.Path!.Segments));
        Assert.Equal(definitionPath, fields[0].Path!.Text);
    }

    [Theory]
    [InlineData("'a.b'", "a.b")]
    [InlineData("'US Gross'", "US Gross")]
    [InlineData("\"O'Brien\"", "O'Brien")]
    [InlineData("Address.'e-mail'", "Address.e-mail")]
    [InlineData("Lines[].'Unit Price'", "Lines[].'Unit Price'")]
    [InlineData("'Tags'[]", "Tags[]")]
    [InlineData("id()", "id()")]
    public void Parse_SelectWithoutAlias_KeepsTheDocumentsName(string field, string alias)
    {
        var projection = Assert.Single(RqlParser.Parse($"from M select {field}").Select);

        Assert.Equal(alias, projection.Alias);
    }

    [Fact]
    public void Parse_SelectWithAliases_TakesBareAndQuotedAliases()
    {
        var query = RqlParser.Parse("from M select 'US Gross' as Gross, 'a.b' as 'A dot B', Address.'e-mail' as Mail");

        Assert.Equal(["Gross", "A dot B", "Mail"], query.Select.Select(p => p.Alias));
        Assert.Equal(["'US Gross'", "'a.b'", "Address.e-mail"], query.Select.Select(p => p.Field.Path!.Text));
    }

    [Fact]
    public void Parse_FacetOnAQuotedName_NamesTheFacetAsTheDocumentDoes()
    {
        var query = RqlParser.Parse("from M select facet('Major Genre'), facet('IMDB Rating' < 5, 'IMDB Rating' >= 5)");

        Assert.Equal(["Major Genre", "IMDB Rating"], query.Facets.Select(f => f.Field.Name));
        Assert.Equal(["'IMDB Rating' < 5", "'IMDB Rating' >= 5"], query.Facets[1].Ranges.Select(r => r.Text));
    }

    [Fact]
    public void Parse_FacetRangesOnTwoSpellingsOfOnePath_AreOneField()
    {
        var query = RqlParser.Parse("from M select facet(Rating < 5, 'Rating' >= 5, \"Rating\" >= 9)");

        Assert.Equal(3, Assert.Single(query.Facets).Ranges.Count);
    }

    [Fact]
    public void Parse_FacetRangesOnAPathAndAPropertyOfTheSameText_AreRefused()
    {
        const string rql = "from M select facet(a.b < 5, 'a.b' >= 5)";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));

        Assert.Equal(rql.IndexOf("'a.b'", StringComparison.Ordinal), error.Position);
        Assert.Contains("same field (a.b, not 'a.b')", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("from M where 'where' = 1", "where")]
    [InlineData("from M where 'order' = 1", "order")]
    [InlineData("from M order by 'desc' desc", "desc")]
    [InlineData("from M select 'limit'", "limit")]
    [InlineData("from M where 'id()' = 1", "id()")]
    public void Parse_KeywordInQuotes_IsAField(string rql, string name)
    {
        var field = Assert.Single(FieldsOf(RqlParser.Parse(rql)));

        Assert.False(field.IsId);
        Assert.Equal([new PathSegment(name)], field.Path!.Segments);
    }

    [Fact]
    public void Parse_IdFunction_IsTheDocumentId()
    {
        var comparison = Assert.IsType<RqlComparison>(RqlParser.Parse("from M where id() = 'm/1'").Where);

        Assert.True(comparison.Field.IsId);
        Assert.Null(comparison.Field.Path);
    }

    [Theory]
    [InlineData("from M where A = 'x'.y", "Expected a value", "'x'.y")]
    [InlineData("from M where A = 'x'[]", "Expected a value", "'x'[]")]
    [InlineData("from M where 'a'. = 1", "Expected a name after '.'", " = 1")]
    [InlineData("from M where a.'b'[0] = 1", "Expected ']' after '['", "0] = 1")]
    [InlineData("from M where e-mail = 1", "Unexpected character '-'", "-mail")]
    [InlineData("from M where 'open = 1", "Unterminated string", "'open")]
    [InlineData("from M where where = 1", "Expected a field name", "where = 1")]
    public void Parse_MalformedFieldReference_SaysWhereAndWhat(string rql, string message, string at)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Equal(rql.IndexOf(at, StringComparison.Ordinal), error.Position);
    }

    [Fact]
    public void Parse_QuotedNameWithAnUnpairedSurrogate_IsRefusedWhereItStarts()
    {
        // Built here: a test case's text would lose the lone surrogate on its way to the runner.
        var rql = "from M where 'a" + (char)0xD800 + "' = 1";

        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));

        Assert.Contains("unpaired surrogate", error.Message, StringComparison.Ordinal);
        Assert.Equal(rql.IndexOf('\'', StringComparison.Ordinal), error.Position);
    }

    /// <summary>Every field reference of a query, in the order the clauses hold them.</summary>
    private static List<RqlField> FieldsOf(RqlQuery query)
    {
        var fields = new List<RqlField>();
        if (query.Where is not null)
            Collect(query.Where, fields);
        fields.AddRange(query.OrderBy.Where(o => o.Field is not null).Select(o => o.Field!));
        fields.AddRange(query.Select.Select(p => p.Field));
        fields.AddRange(query.Facets.Select(f => f.Field));
        return fields;
    }

    private static void Collect(RqlExpression expression, List<RqlField> fields)
    {
        switch (expression)
        {
            case RqlBinary binary:
                Collect(binary.Left, fields);
                Collect(binary.Right, fields);
                break;
            case RqlNot not:
                Collect(not.Inner, fields);
                break;
            case RqlComparison comparison:
                fields.Add(comparison.Field);
                break;
            case RqlBetween between:
                fields.Add(between.Field);
                break;
            case RqlIn @in:
                fields.Add(@in.Field);
                break;
            case RqlFunction function:
                fields.Add(function.Field);
                break;
        }
    }
}
