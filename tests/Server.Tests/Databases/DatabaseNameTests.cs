using Folio.Server.Databases;
using Folio.Server.Http;

namespace Folio.Server.Tests.Databases;

public class DatabaseNameTests
{
    [Theory]
    [InlineData("Northwind")]
    [InlineData("a")]
    [InlineData("my_db-1.v2")]
    [InlineData("0")]
    [InlineData("systems")]
    [InlineData("console")]
    [InlineData("com10")]
    [InlineData("db.con")]
    public void Check_AcceptsName_WhenItFollowsRules(string name)
    {
        Assert.Equal(DatabaseNameError.None, DatabaseName.Check(name));
        Assert.True(DatabaseName.IsValid(name));
    }

    [Fact]
    public void Check_AcceptsName_WhenExactlyMaxLength()
    {
        Assert.True(DatabaseName.IsValid(new string('a', DatabaseName.MaxLength)));
    }

    [Fact]
    public void Check_RejectsName_WhenOneOverMaxLength()
    {
        Assert.Equal(DatabaseNameError.TooLong, DatabaseName.Check(new string('a', DatabaseName.MaxLength + 1)));
    }

    [Theory]
    [InlineData("", DatabaseNameError.Empty)]
    [InlineData("a/b", DatabaseNameError.InvalidCharacter)]
    [InlineData("a\\b", DatabaseNameError.InvalidCharacter)]
    [InlineData("a b", DatabaseNameError.InvalidCharacter)]
    [InlineData("a:b", DatabaseNameError.InvalidCharacter)]
    [InlineData("a\0b", DatabaseNameError.InvalidCharacter)]
    [InlineData("a\tb", DatabaseNameError.InvalidCharacter)]
    [InlineData("a\nb", DatabaseNameError.InvalidCharacter)]
    [InlineData("caf\u00e9", DatabaseNameError.InvalidCharacter)]
    [InlineData(".hidden", DatabaseNameError.StartsWithDot)]
    [InlineData("..", DatabaseNameError.StartsWithDot)]
    [InlineData("trailing.", DatabaseNameError.EndsWithDot)]
    [InlineData("a..b", DatabaseNameError.ContainsDoubleDot)]
    [InlineData("system", DatabaseNameError.Reserved)]
    [InlineData("SYSTEM", DatabaseNameError.Reserved)]
    [InlineData("con", DatabaseNameError.Reserved)]
    [InlineData("Con.db", DatabaseNameError.Reserved)]
    [InlineData("NUL", DatabaseNameError.Reserved)]
    [InlineData("prn", DatabaseNameError.Reserved)]
    [InlineData("aux", DatabaseNameError.Reserved)]
    [InlineData("com1", DatabaseNameError.Reserved)]
    [InlineData("LPT9", DatabaseNameError.Reserved)]
    public void Check_RejectsName_WhenItBreaksRule(string name, DatabaseNameError expected)
    {
        Assert.Equal(expected, DatabaseName.Check(name));
        Assert.False(DatabaseName.IsValid(name));
    }

    [Fact]
    public void Validate_ThrowsBadRequestProblem_WhenNameInvalid()
    {
        var ex = Assert.Throws<FolioHttpException>(() => DatabaseName.Validate("a/b"));

        Assert.Equal(400, ex.StatusCode);
        Assert.Equal(ProblemTypes.InvalidDatabaseName, ex.Type);
        Assert.Equal(DatabaseName.Describe(DatabaseNameError.InvalidCharacter), ex.Detail);
    }

    [Fact]
    public void Validate_DoesNotThrow_WhenNameValid()
    {
        DatabaseName.Validate("Northwind");
    }

    [Fact]
    public void Describe_ExplainsEveryError_WhenAsked()
    {
        foreach (DatabaseNameError error in Enum.GetValues<DatabaseNameError>())
            Assert.False(string.IsNullOrWhiteSpace(DatabaseName.Describe(error)));
    }
}
