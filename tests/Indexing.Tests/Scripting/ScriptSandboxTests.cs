using System.Text;
using Folio.Indexing.Scripting;
using Jint;
using Jint.Native;

namespace Folio.Indexing.Tests.Scripting;

public sealed class ScriptSandboxTests
{
    private static readonly ScriptLimits Tight = new()
    {
        Timeout = TimeSpan.FromSeconds(2),
        MaxStatements = 100_000,
        MaxMemoryBytes = 16L * 1024 * 1024,
        MaxRecursionDepth = 32,
        MaxArraySize = 100_000,
    };

    private static ScriptSandbox Load(string code, ScriptLimits? limits = null)
    {
        var sandbox = new ScriptSandbox(limits ?? Tight);
        sandbox.Load(new ScriptSource().Client(code, 1, 1));
        return sandbox;
    }

    private static ScriptException Fails(string body, ScriptLimits? limits = null)
    {
        using var sandbox = Load("function f() {\n" + body + "\n}", limits);
        return Assert.Throws<ScriptException>(() => sandbox.Call("f", JsValue.Undefined));
    }

    [Fact]
    public void Call_ReadsAndWritesDocuments_RoundTrip()
    {
        using var sandbox = Load("function f(o) { return { Name: o.Name, Total: o.Lines.map(l => l.Price * l.Qty).reduce((a, b) => a + b, 0), Big: 9007199254740991, Half: 0.5, Nested: { A: [1, null, 'x', true] }, Skip: undefined, Fn: function() {} }; }");
        var document = JsonToJs.Read(sandbox.Engine, """{"Name":"Acme","Lines":[{"Price":2.5,"Qty":4},{"Price":10,"Qty":1}]}"""u8);
        var result = sandbox.Call("f", JsValue.Undefined, document);
        Assert.Equal("""{"Name":"Acme","Total":20,"Big":9007199254740991,"Half":0.5,"Nested":{"A":[1,null,"x",true]}}""", Encoding.UTF8.GetString(JsToJson.ToUtf8(result)));
    }

    [Fact]
    public void Load_SyntaxError_NamesLineAndColumnOfTheClientText()
    {
        var source = new ScriptSource().Glue("function glue() {}\n").Client("function f() {\n  return 1 +;\n}", 3, 5);
        using var sandbox = new ScriptSandbox(Tight);
        var error = Assert.Throws<ScriptException>(() => sandbox.Load(source));
        Assert.Equal(ScriptFailure.Syntax, error.Failure);
        Assert.Equal(4, error.Line);
        Assert.Contains("line 4", error.Message);
    }

    [Fact]
    public void Call_RuntimeError_NamesItsLine()
    {
        var error = Fails("var x = 1;\nreturn x.nope.deeper;");
        Assert.Equal(ScriptFailure.Runtime, error.Failure);
        Assert.Equal(3, error.Line);
        Assert.Contains("line 3", error.Message);
    }

    [Fact]
    public void Call_InfiniteLoop_StopsAtTheStatementLimit()
    {
        var error = Fails("while (true) {}");
        Assert.Equal(ScriptFailure.Statements, error.Failure);
        Assert.True(error.IsLimit);
    }

    [Fact]
    public void Call_InfiniteLoop_StopsAtTheTimeout()
    {
        var error = Fails("while (true) {}", Tight with { MaxStatements = int.MaxValue, Timeout = TimeSpan.FromMilliseconds(200) });
        Assert.Equal(ScriptFailure.Timeout, error.Failure);
    }

    [Fact]
    public void Call_DeepRecursion_StopsAtTheRecursionLimit()
    {
        var error = Fails("function down(n) { return down(n + 1) + 1; }\nreturn down(0);");
        Assert.Equal(ScriptFailure.Recursion, error.Failure);
    }

    [Fact]
    public void Call_HugeAllocation_StopsAtTheMemoryLimit()
    {
        var error = Fails("var all = []; var s = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';\nwhile (true) { all.push(s + all.length); if (all.length > 90000) all = all.concat([]); }", Tight with { MaxStatements = int.MaxValue, MaxArraySize = uint.MaxValue - 1 });
        Assert.True(error.Failure is ScriptFailure.Memory or ScriptFailure.Timeout, error.Message);
    }

    [Fact]
    public void Call_HugeArray_StopsAtTheArrayLimit()
    {
        var error = Fails("return new Array(50000000).fill(1).length;");
        Assert.Equal(ScriptFailure.Memory, error.Failure);
    }

    [Theory]
    [InlineData("return System.IO.File.ReadAllText('/etc/passwd');")]
    [InlineData("return importNamespace('System.IO');")]
    [InlineData("return require('fs');")]
    public void Call_ClrAndModules_AreNotReachable(string body)
    {
        var error = Fails(body);
        Assert.Equal(ScriptFailure.Runtime, error.Failure);
        Assert.Contains("not defined", error.Message);
    }

    [Fact]
    public void Call_LimitsStartAfreshForEachCall()
    {
        using var sandbox = Load("function f() { for (var i = 0; i < 60000; i++) {} return i; }");
        for (var run = 0; run < 5; run++)
            Assert.Equal(60000, sandbox.Call("f", JsValue.Undefined).AsNumber());
    }

    [Fact]
    public void Cache_ParsesOneText_Once()
    {
        var text = "function f() { return " + Guid.NewGuid().ToString("N").Length + "; } // " + Guid.NewGuid();
        var before = CompiledScriptCache.Parses;
        for (var i = 0; i < 3; i++)
        {
            using var sandbox = Load(text);
            Assert.Equal(32, sandbox.Call("f", JsValue.Undefined).AsNumber());
        }
        Assert.Equal(1, CompiledScriptCache.Parses - before);
    }

    [Fact]
    public void JsToJson_Cycle_IsAClearError()
    {
        using var sandbox = Load("function f() { var a = {}; a.self = a; return a; }");
        var result = sandbox.Call("f", JsValue.Undefined);
        var error = Assert.Throws<ScriptException>(() => JsToJson.ToUtf8(result));
        Assert.Equal(ScriptFailure.Result, error.Failure);
    }
}
