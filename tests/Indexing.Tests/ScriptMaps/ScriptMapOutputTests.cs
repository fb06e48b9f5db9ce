using Folio.Indexing.Definitions;
using Folio.Indexing.ScriptMaps;
using Folio.Indexing.Scripting;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.ScriptMaps;

/// <summary>
/// What a JavaScript map returns is the map's code too: its getters and proxy traps run while Folio reads the output,
/// and must fail as the map's <see cref="ScriptException"/> (an error recorded on the document) rather than as Jint's
/// own exceptions, which escaped the batch; an output sharing subtrees exponentially is refused instead of written.
/// </summary>
public sealed class ScriptMapOutputTests
{
    [Theory]
    [InlineData("map('Users', u => ({ get a() { throw new Error('getter'); } }))", "getter")]
    [InlineData("map('Users', u => ({ get a() { return (function f(n) { return f(n + 1); })(0); } }))", "deeper")]
    [InlineData("map('Users', u => new Proxy({}, { ownKeys() { throw new Error('keys'); } }))", "keys")]
    [InlineData("map('Users', u => { var o = {}; for (var i = 0; i < 60; i++) o = { l: o, r: o }; return { a: o }; })", "larger than")]
    public async Task Map_OutputFightsBack_FailsAsTheMapsScriptError(string script, string message)
    {
        using var db = new InMemoryDatabase();
        await db.PutAsync("users/1", """{"Name":"Ada","@metadata":{"@collection":"Users"}}""");
        var definition = new IndexDefinition("X", ["Users"], new Dictionary<string, IndexFieldDefinition> { ["a"] = new(FieldPath.Parse("a")) }) { MapScript = script };
        using var runner = new ScriptMapRunner(definition, db.Store);
        using var reader = db.Store.OpenReader();
        Assert.True(reader.TryGet("users/1", out var document));

        // A document is a ref struct over the snapshot's memory: no lambda can hold it, so the throw is caught here.
        ScriptException? error = null;
        try
        {
            runner.Map(document);
        }
        catch (ScriptException e)
        {
            error = e;
        }

        Assert.NotNull(error);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }
}
