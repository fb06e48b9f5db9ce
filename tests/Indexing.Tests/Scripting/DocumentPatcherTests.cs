using System.Text;
using System.Text.Json;
using Folio.Indexing.Patching;
using Folio.Indexing.Rql;
using Folio.Indexing.Scripting;

namespace Folio.Indexing.Tests.Scripting;

public sealed class DocumentPatcherTests
{
    private static readonly ScriptLimits Limits = new() { MaxStatements = 100_000 };

    private static JsonElement Parse(string json) => JsonDocument.Parse(json).RootElement.Clone();

    private static JsonElement Apply(DocumentPatcher patcher, string document) =>
        Parse(Encoding.UTF8.GetString(patcher.Apply(Encoding.UTF8.GetBytes(document))));

    [Fact]
    public void ForScript_ArgsAndThis_ChangeTheDocument()
    {
        using var patcher = DocumentPatcher.ForScript("this.Freight = args.f; this.Tags.push('x'); delete this.Old;", Parse("""{"f":10}"""), Limits);

        var patched = Apply(patcher, """{"Freight":1,"Tags":["a"],"Old":true,"@metadata":{"@collection":"Orders"}}""");

        Assert.Equal(10, patched.GetProperty("Freight").GetInt32());
        Assert.Equal(2, patched.GetProperty("Tags").GetArrayLength());
        Assert.False(patched.TryGetProperty("Old", out _));
        Assert.Equal("Orders", patched.GetProperty("@metadata").GetProperty("@collection").GetString());
    }

    [Fact]
    public void ForQuery_AliasParametersAndFunctions_AreInScope()
    {
        var query = RqlParser.Parse("declare function bump(x, by) { return x + by; }\nfrom Orders as o update { o.Freight = bump(o.Freight, $by); }");
        using var patcher = DocumentPatcher.ForQuery(query, Parse("""{"by":5}"""), Limits);

        Assert.Equal(7, Apply(patcher, """{"Freight":2}""").GetProperty("Freight").GetInt32());
        Assert.Equal(8, Apply(patcher, """{"Freight":3}""").GetProperty("Freight").GetInt32());
    }

    [Fact]
    public void ForQuery_ErrorInUpdate_NamesTheLineOfTheQuery()
    {
        var query = RqlParser.Parse("from Orders\nupdate {\n  this.Lines.push(1);\n}");
        using var patcher = DocumentPatcher.ForQuery(query, null, Limits);

        var error = Assert.Throws<ScriptException>(() => patcher.Apply("""{"Freight":2}"""u8));

        Assert.Equal(ScriptFailure.Runtime, error.Failure);
        Assert.Equal(3, error.Line);
    }

    [Fact]
    public void ForScript_EndlessLoop_StopsOnTheStatementLimit()
    {
        // A loaded machine can spend the default second on fewer statements than the limit: only the count may stop it here.
        using var patcher = DocumentPatcher.ForScript("while (true) {}", null, Limits with { Timeout = TimeSpan.FromMinutes(5) });

        var error = Assert.Throws<ScriptException>(() => patcher.Apply("""{}"""u8));

        Assert.Equal(ScriptFailure.Statements, error.Failure);
    }

    [Fact]
    public void ForScript_SyntaxError_IsRefusedBeforeAnyDocument()
    {
        var error = Assert.Throws<ScriptException>(() => DocumentPatcher.ForScript("this.A = ;", null, Limits));

        Assert.Equal(ScriptFailure.Syntax, error.Failure);
        Assert.Equal(1, error.Line);
    }
}
