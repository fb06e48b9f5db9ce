using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using Folio.Server.BulkInsert;
using Folio.Storage.Documents;

namespace Folio.Server.Tests.BulkInsert;

public class BulkInsertParserTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(7)]
    [InlineData(64)]
    [InlineData(4096)]
    public async Task Parse_ReadsEveryCommand_WhenBodyArrivesInPiecesOfAnySize(int pieceSize)
    {
        var commands = new List<string>();
        for (int i = 0; i < 40; i++)
            commands.Add(TestCommands.Put("users/", i, payloadBytes: i * 7));
        commands.Add("""{"Ignored":{"a":[1,{"b":"\"]}"}]},"Type":"PUT","Id":"quoted/\"1\"","Document":{"S":"a\"},{\"b","@metadata":{"@collection":"Q"}}}""");
        byte[] body = TestCommands.Body(commands);

        List<DocumentCommand> parsed = await ParseInPiecesAsync(body, pieceSize, maxCommands: 5);

        Assert.Equal(commands.Count, parsed.Count);
        for (int i = 0; i < 40; i++)
        {
            Assert.Equal($"users/{i}", parsed[i].Id);
            string stored = Encoding.UTF8.GetString(parsed[i].Document!.Prefix);
            Assert.Contains($"\"Index\":{i},", stored, StringComparison.Ordinal);
            Assert.Contains(TestCommands.Payload(i, i * 7) + "\"", stored, StringComparison.Ordinal);
        }

        Assert.Equal("quoted/\"1\"", parsed[40].Id);
        Assert.Equal("Q", parsed[40].Document!.Collection);
    }

    [Fact]
    public async Task Parse_ReadsDocumentLargerThanItsWindow()
    {
        string big = new('x', 3 * 1024 * 1024);
        byte[] body = TestCommands.Body([$$$"""{"Type":"PUT","Id":"big/1","Document":{"Blob":"{{{big}}}"}}""", TestCommands.Put("users/", 1)]);

        List<DocumentCommand> parsed = await ParseInPiecesAsync(body, 100_000, maxCommands: 1000);

        Assert.Equal(2, parsed.Count);
        Assert.True(parsed[0].Document!.Length > big.Length);
    }

    [Fact]
    public void Parse_StopsAtBatchLimit_AndResumesWithoutLosingCommands()
    {
        var commands = new List<string>();
        for (int i = 0; i < 10; i++)
            commands.Add(TestCommands.Put("users/", i));
        var sequence = new ReadOnlySequence<byte>(TestCommands.Body(commands));
        using var parser = new BulkInsertParser(64, 1 << 20);
        var batch = new List<DocumentCommand>();
        long bytes = 0;

        BulkInsertParseStatus first = parser.Parse(sequence, true, batch, ref bytes, 4, long.MaxValue, out SequencePosition consumed, out _);
        int firstCount = batch.Count;
        batch.Clear();
        BulkInsertParseStatus second = parser.Parse(sequence.Slice(consumed), true, batch, ref bytes, 100, long.MaxValue, out _, out _);

        Assert.Equal(BulkInsertParseStatus.BatchFull, first);
        Assert.Equal(4, firstCount);
        Assert.Equal(BulkInsertParseStatus.Completed, second);
        Assert.Equal(6, batch.Count);
        Assert.Equal("users/4", batch[0].Id);
        Assert.Equal(10, parser.Commands);
    }

    /// <summary>Feeds <paramref name="body"/> through a real pipe in pieces, the way a slow network would.</summary>
    public static TheoryData<int> PieceSizes => [1, 3, 17, 4096];

    [Theory]
    [MemberData(nameof(PieceSizes))]
    public async Task Parse_LaysOutEachDocumentAsPreparedDocumentParseDoes_WhateverItsShape(int pieceSize)
    {
        // The parser lays out documents from the property bounds it saw; PreparedDocument.Parse reads them again.
        string[] documents =
        [
            "{}",
            "{ }",
            """{"a":1}""",
            """{ "a" : 1 , "b" :[ 1, {"c": [ ] } ] ,"d":{ "e" : "}\"]" } , "f":null,"g":true,"h":false,"i":-1.5e3 }""",
            """{"s":"text with , and } and \" and \\","n":{"deep":{"deeper":[[[{}]]]}}}""",
            """{"ünï":"cödé 😀","esc\u0041ped":"\u00e9"}""",
            """{"a":1,"@metadata":{"@collection":"Things","Custom":{"x":1},"@id":"dropped"}}""",
            """{"\u0040metadata":{"@collection":"Escaped"},"z":0}""",
            """{"@metadata":{},"only":"meta is empty"}""",
        ];
        var commands = new List<string>();
        for (int i = 0; i < documents.Length; i++)
            commands.Add($$"""{"Type":"PUT","Id":"shapes/{{i}}","Document":{{documents[i]}}}""");

        List<DocumentCommand> parsed = await ParseInPiecesAsync(TestCommands.Body(commands), pieceSize, maxCommands: 3);

        Assert.Equal(documents.Length, parsed.Count);
        for (int i = 0; i < documents.Length; i++)
        {
            PreparedDocument expected = PreparedDocument.Parse(Encoding.UTF8.GetBytes(documents[i]));
            PreparedDocument actual = parsed[i].Document!;
            Assert.Equal(Encoding.UTF8.GetString(expected.Prefix), Encoding.UTF8.GetString(actual.Prefix));
            Assert.Equal(expected.MetadataHasProperties, actual.MetadataHasProperties);
            Assert.Equal(expected.Collection, actual.Collection);
        }
    }

    [Fact]
    public void FromProperties_RefusesInvalidUtf8_InsideAString()
    {
        byte[] json = [.. "{\"a\":\""u8, 0xC3, 0x28, .. "\"}"u8];
        Assert.Throws<DocumentValidationException>(() => PreparedDocument.FromProperties(json, [1, json.Length - 1]));
    }

    private static async Task<List<DocumentCommand>> ParseInPiecesAsync(byte[] body, int pieceSize, int maxCommands)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0));
        for (int offset = 0; offset < body.Length; offset += pieceSize)
        {
            await pipe.Writer.WriteAsync(body.AsMemory(offset, Math.Min(pieceSize, body.Length - offset)));
        }

        await pipe.Writer.CompleteAsync();
        return await DrainAsync(pipe.Reader, pieceSize, maxCommands);
    }

    private static async Task<List<DocumentCommand>> DrainAsync(PipeReader pipe, int pieceSize, int maxCommands)
    {
        using var parser = new BulkInsertParser(64, 32 << 20);
        var all = new List<DocumentCommand>();
        var batch = new List<DocumentCommand>();
        while (true)
        {
            ReadResult result = await pipe.ReadAsync();
            // Hand the parser at most one piece at a time so every split point is exercised.
            ReadOnlySequence<byte> piece = result.Buffer.Length > pieceSize ? result.Buffer.Slice(0, pieceSize) : result.Buffer;
            bool final = result.IsCompleted && piece.Length == result.Buffer.Length;
            long bytes = 0;
            BulkInsertParseStatus status = parser.Parse(piece, final, batch, ref bytes, maxCommands, long.MaxValue, out SequencePosition consumed, out SequencePosition examined);
            all.AddRange(batch);
            batch.Clear();
            pipe.AdvanceTo(consumed, piece.Length == result.Buffer.Length ? examined : consumed);
            if (status == BulkInsertParseStatus.Completed)
                return all;
        }
    }
}
