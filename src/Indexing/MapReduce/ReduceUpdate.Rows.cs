using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.MapReduce;

/// <summary>A group's result row: <c>{"GroupField": value…, "Aggregation": value…}</c>, in the definition's order.</summary>
internal sealed partial class ReduceUpdate
{
    private static readonly JsonWriterOptions RowJson = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };
    private readonly ArrayBufferWriter<byte> _row = new(256);

    private byte[] BuildRow(GroupState state)
    {
        _row.ResetWrittenCount();
        using var values = JsonDocument.Parse(state.Key);
        using (var writer = new Utf8JsonWriter(_row, RowJson))
        {
            writer.WriteStartObject();
            var g = 0;
            foreach (var value in values.RootElement.EnumerateArray())
            {
                writer.WritePropertyName(_reduce.GroupBy[g++].Name);
                value.WriteTo(writer);
            }
            for (var a = 0; a < _reduce.Aggregations.Count; a++)
            {
                var aggregation = _reduce.Aggregations[a];
                ref readonly var aggregate = ref state[a];
                writer.WritePropertyName(aggregation.Name);
                switch (aggregation.Op)
                {
                    case AggregationOp.Count:
                        writer.WriteNumberValue(aggregation.Path is null ? state.Entries : aggregate.Present);
                        break;
                    case AggregationOp.Sum:
                        WriteTotal(writer, aggregate);
                        break;
                    case AggregationOp.Average when aggregate.Numbers > 0:
                        writer.WriteNumberValue(aggregate.Total().Double / aggregate.Numbers);
                        break;
                    case AggregationOp.Min or AggregationOp.Max when TryReadExtreme(a, state.GroupId, aggregation.Op == AggregationOp.Max, out var extreme):
                        if (extreme.IsInteger)
                            writer.WriteNumberValue(extreme.Integer);
                        else
                            writer.WriteNumberValue(extreme.Double);
                        break;
                    default:
                        writer.WriteNullValue();
                        break;
                }
            }
            writer.WriteEndObject();
        }
        return _row.WrittenSpan.ToArray();
    }

    private static void WriteTotal(Utf8JsonWriter writer, in GroupState.Aggregate aggregate)
    {
        var (isInteger, integer, total) = aggregate.Total();
        if (isInteger)
            writer.WriteNumberValue(integer);
        else
            writer.WriteNumberValue(total);
    }
}
