using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Text;
using System.Threading.Channels;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// One run of the CrashWriter child (tests/CrashWriter) on a directory: its stdout lines arrive on a
/// channel as they are written, so the test can wait for a line, let it write for a while, kill it
/// with SIGKILL and still collect every line it wrote before it died.
/// </summary>
internal sealed class CrashWriterProcess : IDisposable
{
    /// <summary>The tree the child writes transaction n into, under <see cref="Key"/>(n); as in tests/CrashWriter/Program.cs.</summary>
    public const string TxnTree = "txn";

    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);
    private readonly Process _process;
    private readonly Channel<string> _lines = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
    private readonly Task _pump;
    private readonly Task<string> _errors;

    private CrashWriterProcess(string directory, int seed, string? mode)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(WriterPath);
        start.ArgumentList.Add(directory);
        start.ArgumentList.Add(seed.ToString(CultureInfo.InvariantCulture));
        if (mode is not null)
            start.ArgumentList.Add(mode);
        _process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        _pump = PumpAsync();
        _errors = _process.StandardError.ReadToEndAsync();
    }

    /// <summary>Every "ACK n crc" line read so far: transaction number and the CRC-32C of its value.</summary>
    public List<(long Number, uint Checksum)> Acknowledged { get; } = [];

    public static string WriterPath { get; } =
        typeof(CrashWriterProcess).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "CrashWriterPath").Value!;

    /// <summary>Every line read so far that is not an "ACK n crc" line, in the order the child wrote them.</summary>
    public List<string> Lines { get; } = [];

    public static byte[] Key(long number) => Encoding.UTF8.GetBytes($"{number:D12}");

    public static CrashWriterProcess Start(string directory, int seed) => new(directory, seed, mode: null);

    /// <summary>Starts the child in its documents mode: compressed documents <c>crash/n</c>, dictionaries trained and retrained as it writes.</summary>
    public static CrashWriterProcess StartDocuments(string directory, int seed) => new(directory, seed, mode: "documents");

    /// <summary>Starts the child in its compare-exchange mode: entries <c>crash/n</c>, every other one in a cluster-wide batch with a document.</summary>
    public static CrashWriterProcess StartCompareExchange(string directory, int seed) => new(directory, seed, mode: "cmpxchg");

    /// <summary>Starts the child in one of its compaction modes (<c>compact-seed</c>, <c>compact</c>, <c>compact-plain</c>; tests/CrashWriter/CompactionLoop.cs).</summary>
    public static CrashWriterProcess StartCompaction(string directory, int seed, string mode) => new(directory, seed, mode);

    /// <summary>Collects every line until the child exits by itself; throws unless it exits with code 0.</summary>
    public async Task WaitForSuccessAsync()
    {
        using var timeout = new CancellationTokenSource(Patience);
        await _process.WaitForExitAsync(timeout.Token);
        await _pump.WaitAsync(timeout.Token);
        while (_lines.Reader.TryRead(out var line))
            Take(line);
        if (_process.ExitCode != 0)
            throw await DiedAsync("instead of 0");
    }

    /// <summary>Reads lines until one starts with <paramref name="prefix"/>; throws if the child ends first or takes too long.</summary>
    public async Task WaitForLineAsync(string prefix)
    {
        using var timeout = new CancellationTokenSource(Patience);
        while (true)
        {
            string line;
            try
            {
                line = await _lines.Reader.ReadAsync(timeout.Token);
            }
            catch (ChannelClosedException)
            {
                throw await DiedAsync($"before printing {prefix}");
            }
            if (Take(line).StartsWith(prefix, StringComparison.Ordinal))
                return;
        }
    }

    /// <summary>Collects lines for <paramref name="duration"/>, then kills the child (SIGKILL) and collects what it wrote before it died.</summary>
    public async Task KillAfterAsync(TimeSpan duration)
    {
        using (var window = new CancellationTokenSource(duration))
        {
            try
            {
                while (true)
                    Take(await _lines.Reader.ReadAsync(window.Token));
            }
            catch (OperationCanceledException) when (window.IsCancellationRequested)
            {
            }
            catch (ChannelClosedException)
            {
                throw await DiedAsync("while it should have been writing");
            }
        }

        _process.Kill(entireProcessTree: true);
        using var timeout = new CancellationTokenSource(Patience);
        await _process.WaitForExitAsync(timeout.Token);
        await _pump.WaitAsync(timeout.Token);
        while (_lines.Reader.TryRead(out var line))
            Take(line);
    }

    private string Take(string line)
    {
        var parts = line.Split(' ');
        // An ACK line is written in one write, so a kill cannot cut it; the exact shape is checked all the same.
        if (parts is ["ACK", var number, var checksum] && checksum.Length == 8)
            Acknowledged.Add((long.Parse(number, CultureInfo.InvariantCulture), uint.Parse(checksum, NumberStyles.HexNumber, CultureInfo.InvariantCulture)));
        else
            Lines.Add(line);
        return line;
    }

    private async Task PumpAsync()
    {
        try
        {
            while (await _process.StandardOutput.ReadLineAsync() is { } line)
                await _lines.Writer.WriteAsync(line);
        }
        finally
        {
            _lines.Writer.Complete();
        }
    }

    private async Task<Exception> DiedAsync(string when)
    {
        using var timeout = new CancellationTokenSource(Patience);
        await _process.WaitForExitAsync(timeout.Token);
        return new InvalidOperationException($"The crash writer exited with code {_process.ExitCode} {when}:\n{await _errors.WaitAsync(timeout.Token)}");
    }

    public void Dispose()
    {
        if (!_process.HasExited)
            _process.Kill(entireProcessTree: true);
        _process.Dispose();
    }
}
