using CsCheck;

namespace Folio.Server.Tests.Properties;

/// <summary>
/// Grammar-aware generators of RQL queries carrying JavaScript (<c>declare function</c>, <c>select { … }</c>) built to
/// eat a server: deep recursion, endless loops, strings and arrays grown without bound, prototype and getter tricks,
/// <c>load()</c> of many ids, throws, and results that are cycles, shared subtrees, functions, symbols or BigInts; and
/// mutations of them that cut, repeat and insert characters.
/// </summary>
public static class ScriptGenerators
{
    private static readonly string[] Sources =
    [
        "from People as p", "from index 'People/Folio' as p", "from index 'People/Lucene' as p", "from People as p where p.N < 5",
        "from People as p where id() = 'people/1'", "from People as p limit 3", "from People as p order by N as long desc",
    ];

    /// <summary>Expressions a projection's property may hold, each hostile in its own way.</summary>
    public static readonly string[] Expressions =
    [
        "p.Name", "p.N * 2", "id(p)", "getMetadata(p)", "p.Missing", "p.Missing.Deeper", "null", "undefined", "NaN", "1e309", "-0",
        "(function f(n) { return f(n + 1); })(0)",
        "(function () { while (true) {} })()",
        "(function () { for (;;) { } })()",
        "(function () { var s = 'x'; while (true) s += s; })()",
        "(function () { var s = 'x'; for (var i = 0; i < 40; i++) s = s + s; return s.length; })()",
        "'x'.repeat(1 << 29)",
        "'x'.repeat(1 << 26)",
        "new Array(1e9).fill(0)",
        "new Array(4294967295)",
        "(function () { var a = []; while (true) a.push(a.length); })()",
        "Array.from({ length: 1e7 }, (_, i) => i)",
        "(function () { var a = {}; a.self = a; return a; })()",
        "(function () { var a = [1]; for (var i = 0; i < 60; i++) a = [a, a]; return a; })()",
        "(function () { var o = {}; for (var i = 0; i < 60; i++) o = { l: o, r: o }; return o; })()",
        "(function () { var o = 1; for (var i = 0; i < 5000; i++) o = [o]; return o; })()",
        "(function () { var o = 1; for (var i = 0; i < 5000; i++) o = { x: o }; return o; })()",
        "({ get boom() { throw new Error('getter'); } })",
        "({ get spin() { while (true) {} } })",
        "({ get deep() { return (function f(n) { return f(n + 1); })(0); } })",
        "new Proxy({}, { ownKeys() { throw new Error('keys'); } })",
        "new Proxy({}, { get() { while (true) {} } , ownKeys() { return ['a']; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; } })",
        "new Proxy([], { get(t, k) { return k === 'length' ? 1e9 : 1; } })",
        "new Proxy({}, { getOwnPropertyDescriptor() { throw 1; }, ownKeys() { return ['x']; } })",
        "(function () { Object.prototype.toJSON = function () { return 1; }; return {}; })()",
        "(function () { Object.defineProperty(Object.prototype, 'x', { get() { throw 2; }, enumerable: true }); return {}; })()",
        "(function () { Array.prototype.push = null; return [1, 2]; })()",
        "(function () { String.prototype.toString = function () { while (true) {} }; return 'a'; })()",
        "Symbol('s')", "({ s: Symbol.iterator })", "10n ** 100n", "({ b: 12345678901234567890n })", "(() => 1)", "function () {}",
        "new Date(NaN)", "new Date(8.64e15)", "/x/g", "new Map([[1, 2]])", "new Set([1])", "new Error('e')", "new ArrayBuffer(8)",
        "new Uint8Array(10)", "Promise.resolve(1)", "(async function () { return 1; })()", "(function* () { yield 1; })()",
        "JSON.parse('[' .repeat(100000))", "JSON.stringify((function () { var a = {}; a.a = a; return a; })())",
        "(function () { throw new Error('thrown'); })()", "(function () { throw null; })()", "(function () { throw { toString() { while (true) {} } }; })()",
        "load('people/1')", "load('people/1').Name", "load(null)", "load(1)", "load({})", "load('')", "load('x'.repeat(100000))",
        "(function () { var n = 0; for (var i = 0; i < 20000; i++) { if (load('people/' + (i % 50))) n++; } return n; })()",
        "(function () { var r = []; for (var i = 0; i < 300; i++) r.push(load('people/' + i)); return r; })()",
        "eval('1 + 1')", "new Function('return this')()", "globalThis", "this", "arguments", "typeof require",
        "Object.getPrototypeOf(p).constructor.constructor('return this')()", "p.constructor.constructor('while(true){}')()",
        "$p0", "$missing", "args", "id", "load",
        "'\\ud800'", "'\\u0000'", "String.fromCharCode(0xD800) + 'x'",
        "(function () { return 'x'.padStart(2 ** 30); })()", "Array(2 ** 32 - 1).join('x')",
        "[].concat.apply([], new Array(100000).fill([1, 2, 3]))",
        "(function () { var o = {}; for (var i = 0; i < 200000; i++) o['k' + i] = i; return o; })()",
    ];

    private static readonly string[] Functions =
    [
        "declare function rec(n) { return rec(n + 1); }",
        "declare function spin() { while (true) {} }",
        "declare function grow() { var s = 'ab'; while (true) s = s + s; }",
        "declare function cyc() { var a = []; a.push(a); return a; }",
        "declare function boom() { throw new Error('boom'); }",
        "declare function name(x) { return x.Name; }",
        "declare function many() { var r = []; for (var i = 0; i < 500; i++) r.push(load('people/' + i)); return r; }",
        "declare function mutual(n) { return other(n); }\ndeclare function other(n) { return mutual(n); }",
    ];

    private static readonly Gen<string> Expression = Gen.OneOf(
        Gen.OneOfConst(Expressions),
        Gen.OneOfConst("rec(0)", "spin()", "grow()", "cyc()", "boom()", "name(p)", "many()", "mutual(1)"));

    /// <summary>A query with declared functions and an object-literal (or bare expression) projection.</summary>
    public static readonly Gen<string> Query =
        Gen.Select(Gen.OneOfConst(Functions).Array[0, 2], Gen.OneOfConst(Sources), Expression.Array[1, 3], Gen.Bool)
            .Select((functions, source, expressions, literal) =>
            {
                var projection = literal
                    ? "{ " + string.Join(", ", expressions.Select((e, i) => $"V{i}: {e}")) + " }"
                    : "{ V: " + expressions[0] + " }";
                return string.Join("\n", functions) + (functions.Length > 0 ? "\n" : "") + source + " select " + projection;
            });

    private static readonly Gen<string> Insertion = Gen.OneOfConst("{", "}", "(", ")", ";", "'", "\"", "`", "/*", "//", "\n", "=>", "function", "declare", "select", "load", "while(true){}", "\\", "${", "\u0000");

    /// <summary>A generated query with characters cut, repeated or inserted at random places.</summary>
    public static readonly Gen<string> Mutated =
        Gen.Select(Query, Gen.Int[0, 3], Gen.Int[0, 10_000], Gen.Int[0, 10_000], Insertion)
            .Select((query, kind, a, b, insertion) =>
            {
                var at = a % (query.Length + 1);
                var length = Math.Min(b % 12, query.Length - at);
                return kind switch
                {
                    0 => query.Remove(at, length),
                    1 => query.Insert(at, query.Substring(at, length)),
                    2 => query.Insert(at, insertion),
                    _ => query[..at],
                };
            });
}
