using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// Measures the two ways a journal record can be made durable, on a preallocated file the way the
/// journal keeps them: pwrite then fdatasync (what PhysicalFile does) against one pwrite on a file
/// opened O_DIRECT|O_DSYNC. Records are 4 KB aligned in size, offset and buffer, as O_DIRECT needs.
/// <code>dotnet run -c Release --project tests/Benchmarks -- journal-sync [--runs 2] [--dir /tmp]</code>
/// </summary>
internal static unsafe partial class JournalSync
{
    public const string Command = "journal-sync";

    private const int ReadWrite = 0x2, CreateFlag = 0x40, DSync = 0x1000, DirectIo = 0x4000;
    private const long FileSize = 64L << 20;
    private static readonly (int Size, int Count)[] Shapes = [(4096, 2000), (16384, 2000), (65536, 1000), (262144, 250), (1 << 20, 64)];

    public static int Run(string[] args)
    {
        var runs = 2;
        var directory = Path.GetTempPath();
        for (var i = 0; i + 1 < args.Length; i += 2)
        {
            if (args[i] == "--runs")
                runs = int.Parse(args[i + 1], CultureInfo.InvariantCulture);
            else if (args[i] == "--dir")
                directory = args[i + 1];
            else
            {
                Console.Error.WriteLine("usage: journal-sync [--runs N] [--dir PATH]");
                return 2;
            }
        }

        var root = StorageWorkload.FreshDirectory(directory, $"folio-journal-sync-{Environment.ProcessId}");
        var path = Path.Combine(root, "test.journal");
        try
        {
            Console.Out.WriteLine("## Journal: pwrite + fdatasync vs O_DIRECT|O_DSYNC (journal-sync)");
            Console.Out.WriteLine();
            foreach (var line in MachineInfo.Describe(root))
                Console.Out.WriteLine(line);
            Console.Out.WriteLine();
            Console.Out.WriteLine("Per record, microseconds: mean / p50 / p99 of each run; the file is preallocated with zeros and synced first, as the journal's are.");
            Console.Out.WriteLine();
            Console.Out.WriteLine("| Record | Records | pwrite + fdatasync | O_DIRECT\\|O_DSYNC pwrite | Best mean ratio (direct / fdatasync) |");
            Console.Out.WriteLine("| --- | --- | --- | --- | --- |");
            foreach (var (size, count) in Shapes)
            {
                var buffered = new List<Stats>();
                var direct = new List<Stats>();
                for (var run = 0; run < runs; run++)
                {
                    buffered.Add(Measure(path, size, count, directIo: false));
                    direct.Add(Measure(path, size, count, directIo: true));
                }
                var ratio = direct.Min(s => s.Mean) / buffered.Min(s => s.Mean);
                Console.Out.WriteLine($"| {size / 1024} KB | {count} | {string.Join("; ", buffered)} | {string.Join("; ", direct)} | {ratio:F2} |");
            }
            return 0;
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private readonly record struct Stats(double Mean, double P50, double P99)
    {
        public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Mean:F0} / {P50:F0} / {P99:F0}");
    }

    private static Stats Measure(string path, int size, int count, bool directIo)
    {
        Preallocate(path);
        var buffer = (byte*)NativeMemory.AlignedAlloc((nuint)size, 4096);
        var fd = Open(path, ReadWrite | (directIo ? DirectIo | DSync : 0), 0);
        if (fd < 0)
            throw new IOException($"open({path}) failed with errno {Marshal.GetLastPInvokeError()}");
        try
        {
            Random.Shared.NextBytes(new Span<byte>(buffer, size));
            var latencies = new double[count];
            long offset = 0;
            for (var i = 0; i < count; i++)
            {
                if (offset + size > FileSize)
                    offset = 0;
                var started = Stopwatch.GetTimestamp();
                if (PWrite(fd, buffer, (nuint)size, offset) != size)
                    throw new IOException($"pwrite failed with errno {Marshal.GetLastPInvokeError()}");
                if (!directIo && FDataSync(fd) != 0)
                    throw new IOException($"fdatasync failed with errno {Marshal.GetLastPInvokeError()}");
                latencies[i] = Stopwatch.GetElapsedTime(started).TotalMicroseconds;
                offset += size;
            }
            Array.Sort(latencies);
            return new Stats(latencies.Average(), latencies[count / 2], latencies[Math.Min(count - 1, (int)(count * 0.99))]);
        }
        finally
        {
            _ = Close(fd);
            NativeMemory.AlignedFree(buffer);
        }
    }

    private static void Preallocate(string path)
    {
        var fd = Open(path, ReadWrite | CreateFlag, 0b110_100_100);
        if (fd < 0)
            throw new IOException($"open({path}) failed with errno {Marshal.GetLastPInvokeError()}");
        var zeros = new byte[1 << 20];
        try
        {
            fixed (byte* pointer = zeros)
            {
                for (long offset = 0; offset < FileSize; offset += zeros.Length)
                {
                    if (PWrite(fd, pointer, (nuint)zeros.Length, offset) != zeros.Length)
                        throw new IOException($"pwrite failed with errno {Marshal.GetLastPInvokeError()}");
                }
            }
            if (FDataSync(fd) != 0)
                throw new IOException($"fdatasync failed with errno {Marshal.GetLastPInvokeError()}");
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "pwrite", SetLastError = true)]
    private static partial nint PWrite(int fd, byte* buffer, nuint count, long offset);

    [LibraryImport("libc", EntryPoint = "fdatasync", SetLastError = true)]
    private static partial int FDataSync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int Close(int fd);
}
