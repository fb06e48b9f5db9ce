using System.Text.Json;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>Reading the worker's header line.</summary>
internal sealed partial class SubscriptionSession
{
    /// <summary>
    /// Reads Folio's header line; static and free of the connection so the fuzzing harness (tests/Fuzz) can drive it
    /// with hostile input directly.
    /// </summary>
    internal static bool TryReadHeader(JsonElement root, SubscriptionOptions options, out SessionHeader header, out string? problem)
    {
        header = default;
        problem = null;
        if (root.ValueKind != JsonValueKind.Object)
        {
            problem = "The first line must be an object {\"Database\",\"Subscription\",\"Strategy\",\"BatchSize\",\"MaxBatchWaitMs\"}.";
            return false;
        }

        if (!TryString(root, "Database", out string? database) || !TryString(root, "Subscription", out string? subscription))
        {
            problem = "The header needs \"Database\" and \"Subscription\" as non-empty strings.";
            return false;
        }

        bool takeOver = false;
        if (root.TryGetProperty("Strategy", out JsonElement strategy))
        {
            takeOver = strategy.ValueKind == JsonValueKind.String && strategy.ValueEquals("TakeOver"u8);
            if (!takeOver && !(strategy.ValueKind == JsonValueKind.String && strategy.ValueEquals("OpenIfFree"u8)))
            {
                problem = "\"Strategy\" must be \"OpenIfFree\" (the default) or \"TakeOver\".";
                return false;
            }
        }

        int batchSize = options.DefaultBatchSize;
        if (root.TryGetProperty("BatchSize", out JsonElement size) && (size.ValueKind != JsonValueKind.Number || !size.TryGetInt32(out batchSize) || batchSize < 1 || batchSize > options.MaxBatchSize))
        {
            problem = $"\"BatchSize\" must be a whole number from 1 to {options.MaxBatchSize}.";
            return false;
        }

        double waitMs = 0;
        if (root.TryGetProperty("MaxBatchWaitMs", out JsonElement wait) && (wait.ValueKind != JsonValueKind.Number || (waitMs = wait.GetDouble()) < 0 || waitMs > 60_000))
        {
            problem = "\"MaxBatchWaitMs\" must be a number of milliseconds from 0 to 60,000.";
            return false;
        }

        string? apiKey = null;
        if (root.TryGetProperty("ApiKey", out JsonElement key) && !(key.ValueKind == JsonValueKind.String && (apiKey = key.GetString()) is not null))
        {
            problem = "\"ApiKey\" must be a string.";
            return false;
        }

        header = new SessionHeader(database!, subscription!, takeOver, batchSize, TimeSpan.FromMilliseconds(waitMs), apiKey);
        return true;
    }

    private static bool TryString(JsonElement root, string name, out string? value)
    {
        value = root.TryGetProperty(name, out JsonElement element) && element.ValueKind == JsonValueKind.String ? element.GetString() : null;
        return !string.IsNullOrEmpty(value);
    }
}
