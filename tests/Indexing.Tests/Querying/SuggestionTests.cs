using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Querying;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.Querying;

/// <summary>
/// <c>select suggest(…)</c> through RQL on each search engine over a real index: the answers are worked out by hand
/// from the measures (<see cref="StringSimilarityTests"/>), the n-gram candidates and the options.
/// </summary>
public class SuggestionTests
{
    public static TheoryData<string> Engines => new() { "Folio", "Lucene" };

    private static async Task<InMemoryDatabase> OpenAsync(string engine)
    {
        var db = new InMemoryDatabase(engine);
        await db.PutAsync("users/1", """{"Name":"Ayende","Company":"Hibernating","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/2", """{"Name":"Oren","Company":"HR","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/3", """{"Name":"John Steinbeck","Company":"Unknown","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/4", """{"Name":"dan","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/5", """{"Name":"daniel","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/6", """{"Name":"danielle","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/7", """{"Name":"Danielle","@metadata":{"@collection":"Users"}}""");
        return db;
    }

    private static async Task<Dictionary<string, List<string>>> SuggestAsync(InMemoryDatabase db, string rql, string? parameters = null)
    {
        using var json = parameters is null ? null : JsonDocument.Parse(parameters);
        using var result = await db.Runner.RunAsync(rql, new QueryOptions { WaitForNonStaleResults = true, Parameters = json?.RootElement });
        var answer = new Dictionary<string, List<string>>();
        foreach (var row in result.Results)
        {
            var item = JsonDocument.Parse(Encoding.UTF8.GetString(row.Span)).RootElement;
            answer[item.GetProperty("Name").GetString()!] = item.GetProperty("Suggestions").EnumerateArray().Select(s => s.GetString()!).ToList();
        }
        return answer;
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Suggest_OffersTheSimilarTerms_OfAnExactField(string engine)
    {
        using var db = await OpenAsync(engine);
        // Owen: oren is 2 edits of 4 away as written (O/o, w/r), 0.5; the rest share a letter but are far less alike.
        Assert.Equal(["oren"], (await SuggestAsync(db, "from Users select suggest(Name, 'Owen')"))["Name"]);
        // The word itself is never offered; no other term is half as similar.
        Assert.Empty((await SuggestAsync(db, "from Users select suggest(Name, 'Oren')"))["Name"]);
        // daniele: danielle 1 edit of 8 (0.875, and the most frequent), daniel 1 of 7 (0.857); dan 4 of 7 is under 0.5.
        Assert.Equal(["danielle", "daniel"], (await SuggestAsync(db, "from Users select suggest(Name, 'daniele') as 'Display name'"))["Display name"]);
        Assert.Equal(["hibernating"], (await SuggestAsync(db, "from Users select suggest(Name, 'Owen'), suggest(Company, 'Hiberanting')"))["Company"]);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Suggest_FollowsTheOptions_PageSizeAccuracyDistanceAndSortMode(string engine)
    {
        using var db = await OpenAsync(engine);
        Assert.Equal(["danielle"], (await SuggestAsync(db, "from Users select suggest(Name, 'daniele', $o)", """{"o":{"PageSize":1}}"""))["Name"]);
        // At 0.9 neither danielle (0.875) nor daniel (0.857) is similar enough.
        Assert.Empty((await SuggestAsync(db, "from Users select suggest(Name, 'daniele', $o)", """{"o":{"Accuracy":0.9}}"""))["Name"]);
        // Without popularity a word the field has is answered as itself.
        Assert.Equal(["daniel"], (await SuggestAsync(db, "from Users select suggest(Name, 'daniel', $o)", """{"o":{"SortMode":"None"}}"""))["Name"]);
        // With popularity, never the word itself but the others at least as frequent: danielle (2 of 8 edits, 0.75), dan (3 of 6, 0.5).
        Assert.Equal(["danielle", "dan"], (await SuggestAsync(db, "from Users select suggest(Name, 'daniel')"))["Name"]);
        // danielle is in two entries, daniel (0.75 similar) in one: popularity leaves it out, and without it the word answers itself.
        Assert.Empty((await SuggestAsync(db, "from Users select suggest(Name, 'danielle', $o)", """{"o":{"Accuracy":0.7}}"""))["Name"]);
        Assert.Equal(["danielle"], (await SuggestAsync(db, "from Users select suggest(Name, 'danielle', $o)", """{"o":{"Accuracy":0.7,"SortMode":"None"}}"""))["Name"]);
        // Jaro-Winkler of daniele and dan: 3 matches, (3/7 + 1 + 1) / 3 = 0.81, prefix 3: 0.867 - above 0.8, as are the others.
        Assert.Equal(["danielle", "daniel", "dan"], (await SuggestAsync(db, "from Users select suggest(Name, 'daniele', $o)", """{"o":{"Distance":"JaroWinkler","Accuracy":0.8}}"""))["Name"]);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Suggest_JoinsTheSuggestionsOfSeveralWords_UpToThePageSize(string engine)
    {
        using var db = await OpenAsync(engine);
        var answer = await SuggestAsync(db, "from Users select suggest(Name, $w, $o)", """{"w":["Owen","daniele"],"o":{"PageSize":2}}""");
        Assert.Equal(["oren", "danielle"], answer["Name"]);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Suggest_OffersAnalyzedTerms_OfAFullTextField(string engine)
    {
        using var db = new InMemoryDatabase(engine);
        db.Indexes.Put([InMemoryDatabase.Definition("""{"Name":"Notes/ByText","Collections":["Notes"],"Fields":{"Text":{"Path":"Text","Search":true}}}""")]);
        await db.PutAsync("notes/1", """{"Text":"A quick brown fox","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/2", """{"Text":"The brown dog","@metadata":{"@collection":"Notes"}}""");
        // browm: brown is 1 edit of 5 away (0.8); the other terms share no bigram or trigram with it.
        Assert.Equal(["brown"], (await SuggestAsync(db, "from index 'Notes/ByText' select suggest(Text, 'browm')"))["Text"]);
    }

    [Theory]
    [InlineData("from Users select suggest(Name, 'x', $o)", """{"o":{"Distance":"Soundex"}}""")]
    [InlineData("from Users select suggest(Name, 'x', $o)", """{"o":{"Accuracy":2}}""")]
    [InlineData("from Users select suggest(Name, 'x', $o)", """{"o":{"Colour":1}}""")]
    [InlineData("from Users select suggest(Name, $w)", """{"w":5}""")]
    public async Task Suggest_RefusesBadOptionsAndWords_WithAQueryError(string rql, string parameters)
    {
        using var db = await OpenAsync("Folio");
        await Assert.ThrowsAsync<QueryException>(() => SuggestAsync(db, rql, parameters));
    }
}
