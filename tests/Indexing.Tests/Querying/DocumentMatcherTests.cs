using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Querying.Matching;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Querying;

public class DocumentMatcherTests
{
    private const string Order = """
        {"Total":150,"Company":"Companies/1","Tags":["Rush","gift"],"Lines":[{"Product":"products/1","Qty":2},{"Product":"products/7","Qty":40}],
         "Note":null,"Paid":true,"Major Genre":"Drama","Rating":4.5}
        """;

    [Theory]
    [InlineData("from Orders where Total > 100", true)]
    [InlineData("from Orders where Total > 150", false)]
    [InlineData("from Orders where Total >= 150 and Total <= 150", true)]
    [InlineData("from Orders where Total between 100 and 149", false)]
    [InlineData("from Orders where Total = 150.0", true)]
    [InlineData("from Orders where Total = '150'", false)]
    [InlineData("from Orders where Company = 'companies/1'", true)]
    [InlineData("from Orders where Company != 'companies/1'", false)]
    [InlineData("from Orders where Missing != 'x'", true)]
    [InlineData("from Orders where Tags = 'RUSH'", true)]
    [InlineData("from Orders where Tags in ('a', 'Gift')", true)]
    [InlineData("from Orders where Lines[].Qty > 30", true)]
    [InlineData("from Orders where Lines[].Product = 'products/2'", false)]
    [InlineData("from Orders where Note = null", true)]
    [InlineData("from Orders where Total = null", false)]
    [InlineData("from Orders where Paid = true", true)]
    [InlineData("from Orders where exists(Note)", true)]
    [InlineData("from Orders where exists(Missing)", false)]
    [InlineData("from Orders where startsWith(Company, 'COMP')", true)]
    [InlineData("from Orders where endsWith(Company, '/2')", false)]
    [InlineData("from Orders where 'Major Genre' = 'drama'", true)]
    [InlineData("from Orders where Rating < 5 and not Total < 100", true)]
    [InlineData("from Orders where Total < 100 or Company > 'b'", true)]
    [InlineData("from Orders where Company > 'd'", false)]
    [InlineData("from Orders where id() = 'ORDERS/1'", true)]
    [InlineData("from Orders where startsWith(id(), 'users/')", false)]
    [InlineData("from Orders", true)]
    [InlineData("from Orders where Total > 100 filter Paid = false", false)]
    [InlineData("from Orders filter Lines.Count = 2 and Paid = true", true)]
    public void Matches_AnswersAsAnAutoIndexWould_ForEachCondition(string rql, bool expected)
    {
        DocumentMatcher matcher = DocumentMatcher.Compile(rql);
        using JsonDocument document = JsonDocument.Parse(Order);

        Assert.Equal(expected, matcher.Matches("orders/1", document.RootElement));
        Assert.Equal("Orders", matcher.Collection);
    }

    [Fact]
    public void Compile_ResolvesParameters_Once()
    {
        using JsonDocument parameters = JsonDocument.Parse("""{"min":100,"company":"Companies/1"}""");
        DocumentMatcher matcher = DocumentMatcher.Compile("from Orders where Total > $min and Company = $company", parameters.RootElement);
        using JsonDocument document = JsonDocument.Parse(Order);

        Assert.True(matcher.Matches("orders/1", document.RootElement));
    }

    [Theory]
    [InlineData("from index 'Orders/ByTotal'")]
    [InlineData("from Orders order by Total")]
    [InlineData("from Orders select Total")]
    [InlineData("from Orders group by Company select count()")]
    [InlineData("from Orders limit 5")]
    [InlineData("from Orders where search(Note, 'x')")]
    [InlineData("from Orders where Total > null")]
    [InlineData("from Orders where Total > $missing")]
    [InlineData("declare function f(o) { return true; } from Orders as o filter f(o)")]
    [InlineData("from Orders filter Total > 1 filter_limit 5")]
    public void Compile_RefusesQueriesThatDoMoreThanFilterACollection(string rql)
    {
        Assert.Throws<QueryException>(() => DocumentMatcher.Compile(rql));
    }

    [Fact]
    public void Compile_KeepsIncludePaths_ThroughTheAlias()
    {
        DocumentMatcher matcher = DocumentMatcher.Compile("from 'Orders' as doc where doc.Total > 100 include doc.Company, doc.Lines[].Product");
        using JsonDocument document = JsonDocument.Parse(Order);

        Assert.True(matcher.Matches("orders/1", document.RootElement));
        Assert.Equal(2, matcher.Includes.Count);
        Assert.Equal("Companies/1", Assert.Single(matcher.Includes[0].Values(document.RootElement)).GetString());
        Assert.Empty(DocumentMatcher.Compile("from Orders").Includes);
    }

    [Fact]
    public void Compile_ReportsSyntaxErrors_WithTheParser()
    {
        Assert.Throws<RqlParseException>(() => DocumentMatcher.Compile("from Orders where"));
    }
}
