using Folio.Fuzz.Harnesses;
using SharpFuzz;

// Folio.Fuzz HARNESS           : under afl-fuzz (run.sh), the fork server loop over AFL's inputs; alone, one input from stdin.
// Folio.Fuzz HARNESS FILE...   : replays each file (a corpus entry or a crash AFL kept) and says which failed.
if (args.Length == 0 || !HarnessRegistry.TryGet(args[0], out Action<byte[]>? harness))
{
    Console.Error.WriteLine($"usage: Folio.Fuzz HARNESS [FILE...]; harnesses: {string.Join(", ", HarnessRegistry.Names)}");
    return 2;
}

if (args.Length == 1)
{
    // Out of process: a stack overflow (deep RQL or JSON nesting) kills the child, and AFL still records it as a crash.
    // FOLIO_FUZZ_LOG names a file that collects each crash's exception: AFL keeps the input but not what was thrown.
    string? log = Environment.GetEnvironmentVariable("FOLIO_FUZZ_LOG");
    Fuzzer.OutOfProcess.Run(stream =>
    {
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        try
        {
            harness(copy.ToArray());
        }
        catch (Exception e) when (log is not null)
        {
            File.AppendAllText(log, $"{DateTime.UtcNow:O} {Convert.ToBase64String(copy.ToArray())}{Environment.NewLine}{e}{Environment.NewLine}");
            throw;
        }
    });
    return 0;
}

int failed = 0;
foreach (string file in args.Skip(1))
{
    try
    {
        harness(File.ReadAllBytes(file));
    }
    catch (Exception e)
    {
        failed++;
        Console.WriteLine($"FAIL {file}: {e.GetType().FullName}: {e.Message}");
        Console.WriteLine(e.StackTrace);
    }
}

Console.WriteLine($"{args.Length - 1 - failed} passed, {failed} failed");
return failed == 0 ? 0 : 1;
