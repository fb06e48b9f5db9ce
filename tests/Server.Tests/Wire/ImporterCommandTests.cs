using System.Buffers;
using System.Text;
using System.Text.Json;
using Folio.Import;

namespace Folio.Server.Tests.Wire;

/// <summary>The importer writes bulk insert commands of the shape the wire contract gives them.</summary>
public sealed class ImporterCommandTests
{
    private static WireContract Contract => WireContract.Embedded;

    [Fact]
    public void Write_ProducesCommandsTheBulkInsertSchemaAccepts_ForEveryIdSource()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new CommandWriter(output, idPrefix: "users/");

        writer.Write("""{"@id":"users/1","Name":"Ann","Tags":["a"],"Address":{"City":"Oslo"}}"""u8, "line 1");
        writer.Write("""{"Id":"users/2","Name":"Bo"}"""u8, "line 2");
        writer.Write("""{"Name":"No id: the prefix makes one","@metadata":{"@collection":"Users"}}"""u8, "line 3");
        writer.Write("""{"@id":"users/\"quoted\" \u00e9","Name":"Escaped id"}"""u8, "line 4");

        // The writer appends comma-separated commands; the importer frames them in an array.
        using JsonDocument body = JsonDocument.Parse("[" + Encoding.UTF8.GetString(output.WrittenSpan) + "]");
        Assert.Equal(4, body.RootElement.GetArrayLength());
        Assert.Empty(Contract.ValidateComponent("BulkInsertRequest", body.RootElement));
        foreach (JsonElement command in body.RootElement.EnumerateArray())
            Assert.Empty(Contract.ValidateComponent("BulkInsertCommand", command));
        Assert.Equal("users/", body.RootElement[2].GetProperty("Id").GetString());
    }

    [Theory]
    [InlineData("""{"Type":"DELETE","Id":"users/1"}""")]
    [InlineData("""{"Type":"PUT","Id":"users/1"}""")]
    [InlineData("""{"Type":"PUT","Id":"users/1","Document":[1]}""")]
    [InlineData("""{"Type":"PUT","Id":"","Document":{}}""")]
    [InlineData("""{"Type":"PUT","Id":"users/1","Document":{},"ChangeVector":"A:1-x"}""")]
    public void BulkInsertCommandSchema_RefusesCommands_TheServerRefuses(string command)
    {
        using JsonDocument parsed = JsonDocument.Parse(command);

        Assert.NotEmpty(Contract.ValidateComponent("BulkInsertCommand", parsed.RootElement));
    }
}
