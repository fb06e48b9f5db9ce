using System.Text;
using Folio.Storage;
using Folio.Storage.Platform;
using Folio.Storage.Transactions;

namespace Folio.CrashWriter;

/// <summary>
/// Usage: dotnet Folio.CrashWriter.dll &lt;directory&gt; &lt;seed&gt;
/// Opens the environment in the directory and writes transactions until it is killed: one loop
/// through BeginWrite/Commit and several tasks through the transaction merger. Each transaction n
/// stores a value of random size under key n in tree "txn" (plus churn in tree "scratch"); once its
/// commit has returned, the line "ACK n crc" (the value's CRC-32C, 8 hex digits) goes to stdout in
/// one write. Numbering continues after the highest number an earlier run committed. Lines
/// "OPENING" and "OPENED" frame the open (and recovery). Any error goes to stderr, exit code 1.
/// With a third argument <c>documents</c> it writes compressed documents instead (<see cref="DocumentLoop"/>), with
/// <c>cmpxchg</c> compare-exchange entries (<see cref="CompareExchangeLoop"/>), with <c>compact-seed</c>, <c>compact</c> or
/// <c>compact-plain</c> documents while the store compacts itself over and over (<see cref="CompactionLoop"/>).
/// </summary>
public static class Program
{
    public const string TxnTree = "txn";
    public const string MetaTree = "meta";
    private const string ScratchTree = "scratch";
    private const int MergerTasks = 3;
    private static readonly byte[] NextKey = Encoding.UTF8.GetBytes("next");
    private static readonly Lock OutputLock = new();
    private static readonly Stream Output = Console.OpenStandardOutput();
    private static long _lastNumber;

    public static async Task<int> Main(string[] args)
    {
        if (args.Length is not (2 or 3) || !int.TryParse(args[1], out var seed) || (args.Length == 3 && args[2] is not ("documents" or "cmpxchg" or "compact-seed" or "compact" or "compact-plain")))
        {
            await Console.Error.WriteLineAsync("usage: Folio.CrashWriter <directory> <seed> [documents|cmpxchg|compact-seed|compact|compact-plain]");
            return 2;
        }
        try
        {
            Print("OPENING");
            if (args.Length == 3 && args[2].StartsWith("compact", StringComparison.Ordinal))
                return await CompactionLoop.RunAsync(args[0], seed, args[2], Print);
            if (args.Length == 3)
            {
                await (args[2] == "documents" ? DocumentLoop.RunAsync(args[0], seed, Print) : CompareExchangeLoop.RunAsync(args[0], seed, Print));
                return 1;
            }
            var options = StorageOptions.ForPath(args[0]) with
            {
                // Small journals and eager flushing, so kills land in journal rotation and in flushes too.
                JournalFileSize = 256 << 10,
                FlushThresholdBytes = 512 << 10,
                FlushInterval = TimeSpan.FromMilliseconds(20),
                MergerMaxDuration = TimeSpan.FromMilliseconds(5),
            };
            using var env = StorageEnvironment.Open(options);
            _lastNumber = ReadNext(env) - 1;
            Print($"OPENED {env.LastCommittedTransactionId}");

            var workers = new Task[MergerTasks + 1];
            workers[0] = Task.Factory.StartNew(() => DirectLoop(env, new Random(seed)), TaskCreationOptions.LongRunning);
            for (var i = 1; i <= MergerTasks; i++)
            {
                var random = new Random(seed * 31 + i);
                workers[i] = Task.Run(() => MergerLoop(env, random));
            }
            await await Task.WhenAny(workers);
            return 1;
        }
        catch (Exception e)
        {
            await Console.Error.WriteLineAsync(e.ToString());
            return 1;
        }
    }

    public static byte[] Key(long number) => Encoding.UTF8.GetBytes($"{number:D12}");

    private static void DirectLoop(StorageEnvironment env, Random random)
    {
        while (true)
        {
            var change = Change.Next(random);
            using (var tx = env.BeginWrite())
            {
                change.Apply(tx);
                tx.Commit();
            }
            Print($"ACK {change.Number} {change.Checksum:X8}");
        }
    }

    private static async Task MergerLoop(StorageEnvironment env, Random random)
    {
        while (true)
        {
            var change = Change.Next(random);
            await env.Merger.EnqueueAsync(change.Apply);
            Print($"ACK {change.Number} {change.Checksum:X8}");
        }
    }

    private static long ReadNext(StorageEnvironment env)
    {
        using var read = env.BeginRead();
        return read.OpenTree(MetaTree) is { } meta && meta.TryGet(NextKey, out var value) ? long.Parse(Encoding.UTF8.GetString(value)) : 1;
    }

    /// <summary>Writes the line with one write call, so a kill never leaves half of it.</summary>
    private static void Print(string line)
    {
        var bytes = Encoding.ASCII.GetBytes(line + "\n");
        lock (OutputLock)
        {
            Output.Write(bytes);
            Output.Flush();
        }
    }

    /// <summary>
    /// One transaction's work, drawn up front so that running it again (the merger reruns operations)
    /// does the same thing.
    /// </summary>
    private sealed class Change
    {
        private readonly byte[] _value;
        private readonly (int Key, int Size)[] _scratch;

        private Change(long number, byte[] value, (int, int)[] scratch)
        {
            Number = number;
            _value = value;
            _scratch = scratch;
            Checksum = Crc32C.Compute(value);
        }

        public long Number { get; }

        public uint Checksum { get; }

        public static Change Next(Random random)
        {
            var size = random.Next(100) switch
            {
                < 1 => random.Next(150_000, 300_000),
                < 10 => random.Next(2000, 40_000),
                _ => random.Next(2000),
            };
            var value = new byte[size];
            random.NextBytes(value);
            var scratch = new (int, int)[random.Next(4)];
            for (var i = 0; i < scratch.Length; i++)
                scratch[i] = (random.Next(500), random.Next(3) == 0 ? -1 : random.Next(10_000));
            return new Change(Interlocked.Increment(ref _lastNumber), value, scratch);
        }

        public void Apply(WriteTransaction tx)
        {
            tx.CreateTree(TxnTree).Put(Key(Number), _value);
            var scratch = tx.CreateTree(ScratchTree);
            foreach (var (key, size) in _scratch)
            {
                if (size < 0)
                    scratch.Delete(Key(key));
                else
                    scratch.Reserve(Key(key), size).Fill((byte)key);
            }
            var meta = tx.CreateTree(MetaTree);
            var next = meta.TryGet(NextKey, out var stored) ? long.Parse(Encoding.UTF8.GetString(stored)) : 1;
            if (Number + 1 > next)
                meta.Put(NextKey, Encoding.UTF8.GetBytes((Number + 1).ToString()));
        }
    }
}
