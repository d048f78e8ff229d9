/**
 * The page's device holder: the one place of the page that acquires a GPUDevice (navigator.gpu, through
 * engine/select.ts's browserDeviceSource) and watches it for loss; every GPU client of the page (the GPU panel's
 * checks, the memory panel's search) takes its device from here, and every WebGPU call goes through the
 * engine's host (engine/webgpu.ts).
 */
import type { Backend } from '../engine/backend.js';
import { CpuBackend } from '../engine/cpu.js';
import { browserDeviceSource, gpuBackendOn, type DeviceSource } from '../engine/select.js';

/**
 * The backends of the page: the GPU one when navigator.gpu yields a device, and the CPU one.
 * A lost GPU device (driver reset, another tab, destroy()) is noticed through device.lost:
 * `onLost` says so, and the next gpu() acquires a new device.
 */
export class Engines {
  readonly cpu = new CpuBackend();
  private gpuP: Promise<Backend> | null = null;
  private readonly source: DeviceSource | undefined;
  gpuError: string | null = null;
  /** why the last device was lost, until a new one is acquired */
  lostWhy: string | null = null;
  /** devices acquired so far (1 after the first, 2 after a loss and the next check, …) */
  acquired = 0;
  /** called when the device is lost */
  onLost: ((why: string) => void) | null = null;
  webgpu: boolean;

  constructor() {
    this.source = browserDeviceSource();
    this.webgpu = this.source !== undefined;
    if (!this.source) {
      this.gpuError = 'this browser has no WebGPU (navigator.gpu is missing)';
      return;
    }
    this.acquire(this.source);
  }

  private acquire(source: DeviceSource): void {
    const p: Promise<Backend> = source().then(
      (d) => {
        this.acquired++;
        this.lostWhy = null;
        this.gpuError = null;
        void d.device.lost.then((info) => {
          if (this.gpuP !== p) return;
          this.gpuP = null;
          this.lostWhy = `${info.reason ?? 'unknown'}${info.message ? `: ${info.message}` : ''}`;
          this.onLost?.(this.lostWhy);
        });
        return gpuBackendOn(d);
      },
      (e: unknown) => {
        this.gpuError = e instanceof Error ? e.message : String(e);
        throw e;
      },
    );
    p.catch(() => {});
    this.gpuP = p;
  }

  /** the GPU backend (a new device after a loss), or null when there is none (gpuError says why) */
  async gpu(): Promise<Backend | null> {
    if (!this.gpuP && this.source && this.lostWhy !== null) this.acquire(this.source);
    if (!this.gpuP) return null;
    try {
      return await this.gpuP;
    } catch {
      return null;
    }
  }

  /** the adapter in one line, for the panel */
  async adapterText(): Promise<{ ok: boolean; text: string; software: boolean }> {
    const g = await this.gpu();
    if (g) return { ok: true, text: g.info.adapter, software: g.info.software === true };
    return { ok: false, text: this.gpuError ?? 'no GPU adapter', software: false };
  }
}
