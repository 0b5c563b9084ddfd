const t0=performance.now(); await import('/work/main/src/http/app.ts'); console.log(Math.round(performance.now()-t0),'ms', JSON.stringify(process.cpuUsage()));
